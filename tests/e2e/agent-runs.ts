// Saved runs for the agent run tests: records written in the shape the engine records them
// (map instances named `node[i]`, `details[node].usage`, messages with ids), stored as the
// editor saves runs and opened from the run history, so the editor's views of them can be
// tested without running the engine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, node } from './fixtures';
import { historyRegion, importJson, runStatus, timeline } from './run-panel';

export const graph = (file: string) => JSON.parse(readFileSync(join(import.meta.dirname, 'graphs', file), 'utf8'));

// ---------------------------------------------------------------------------------------
// Saved runs written into the browser's storage, as the editor saves them.

export type Json = Record<string, unknown>;

interface StepSpec {
  ran: string[];
  updates: Json;
  state: Json;
  errors?: Json;
  details?: Json;
  taken?: number[];
  next?: string[];
}

/** A completed run record (switchyard/run@1) with these steps; each step's patch replaces the top-level keys it changed. */
export function record(graphName: string, runId: string, initial: Json, steps: StepSpec[]): Json {
  let before = initial;
  const docs = steps.map((s, i) => {
    const patch = Object.keys(s.state)
      .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(s.state[k]))
      .map((k) => ({ op: k in before ? 'replace' : 'add', path: `/${k}`, value: s.state[k] }));
    before = s.state;
    return {
      step: i + 1, ran: s.ran, updates: s.updates, errors: s.errors ?? {}, patch, state: s.state,
      next: s.next ?? [], taken: s.taken ?? [], details: s.details ?? {}, duration_ms: 1.5,
    };
  });
  return {
    format: 'switchyard/run@1', run_id: runId, graph: graphName, status: 'completed', input: {},
    state: steps.at(-1)?.state ?? initial, step: steps.length, next: [], waiting: [], error: null, outputs: {},
    steps: docs,
  };
}

/**
 * Imports `doc`, stores `run` as a saved run of it, reloads (the editor reopens the graph and
 * lists its runs) and opens the run from the history.
 */
export async function openSavedRun(page: Page, doc: Json, firstNode: string, run: Json, initial: Json): Promise<void> {
  const ids = () =>
    page.evaluate(() =>
      (JSON.parse(localStorage.getItem('switchyard.index') ?? '{"entries":[]}').entries as { id: string }[]).map((e) => e.id),
    );
  const before = new Set(await ids());
  await importJson(page, doc, firstNode);
  // The imported graph is the one saved under a new id.
  let id = '';
  await expect
    .poll(async () => {
      id = (await ids()).find((i) => !before.has(i)) ?? '';
      return id;
    }, { message: 'the imported graph is saved' })
    .not.toBe('');
  const runId = run.run_id as string;
  await page.evaluate(
    ({ id, runId, saved, steps }) => {
      localStorage.setItem(`switchyard.run.${id}.${runId}`, JSON.stringify(saved));
      localStorage.setItem(`switchyard.runs.${id}`, JSON.stringify([{ run_id: runId, status: 'completed', steps, at: Date.now() }]));
    },
    { id, runId, saved: { record: run, initial }, steps: (run.steps as unknown[]).length },
  );
  await page.reload();
  await expect(node(page, firstNode)).toBeVisible();
  await historyRegion(page).getByRole('button', { name: new RegExp(runId) }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
}

export async function showStep(page: Page, k: number): Promise<void> {
  await timeline(page).fill(String(k));
  await expect(timeline(page)).toHaveValue(String(k));
}

// ---------------------------------------------------------------------------------------
// The runs.

export const SYSTEM = { id: 'm1', role: 'system', content: 'You are a weather assistant.' };
export const QUESTION = { id: 'm2', role: 'user', content: 'What is the weather in Paris?' };
export const CALL = {
  id: 'm3', role: 'assistant', content: '',
  tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } }],
};
export const RESULT = { id: 'm4', role: 'tool', name: 'get_weather', tool_call_id: 'call_1', content: '{"temp_c":18,"sky":"clear"}' };
export const EDITED = { ...QUESTION, content: 'What is the weather in Paris today?' };
export const ANSWER = { id: 'm5', role: 'assistant', content: 'It is 18 °C and clear in Paris.' };

/** What tests/e2e/graphs/transcript.json does, step by step, as the engine records it. */
export function transcriptRun(): Json {
  const states = [
    { messages: [SYSTEM, QUESTION], turns: 0 },
    { messages: [SYSTEM, QUESTION, CALL], turns: 1 },
    { messages: [SYSTEM, QUESTION, CALL, RESULT], turns: 1 },
    { messages: [SYSTEM, EDITED, CALL, RESULT, ANSWER], turns: 2 },
  ];
  return record('Transcript', 'transcript-run', { messages: [], turns: 0 }, [
    { ran: ['ask'], updates: { ask: { messages: [SYSTEM, QUESTION] } }, state: states[0], taken: [1] },
    { ran: ['agent'], updates: { agent: { messages: states[1].messages, turns: 1 } }, state: states[1], taken: [2] },
    { ran: ['tool'], updates: { tool: { messages: states[2].messages } }, state: states[2], taken: [3] },
    { ran: ['answer'], updates: { answer: { messages: states[3].messages, turns: 1 } }, state: states[3], taken: [4] },
  ]);
}

/** A run of tests/e2e/graphs/map-reduce.json over `n` sections, as the engine records it. */
export function mapRun(n: number, failing: number[] = []): { run: Json; initial: Json } {
  const sections = Array.from({ length: n }, (_, i) => `section ${i}`);
  const summaries = sections.map((s, i) => ({ index: i, text: `Summary of ${s}` }));
  const initial = { sections, summaries: [], report: '' };
  const ids = sections.map((_, i) => `summarize[${i}]`);
  const ok = ids.filter((_, i) => !failing.includes(i));
  const s1 = { sections, summaries: [], report: `summarizing ${n} sections` };
  const s2 = { ...s1, summaries: summaries.filter((_, i) => !failing.includes(i)) };
  const s3 = { ...s2, report: `${s2.summaries.length} summaries combined` };
  const run = record('Map reduce', `map-run-${n}`, initial, [
    { ran: ['split'], updates: { split: { report: s1.report } }, state: s1, taken: [1], next: ids },
    {
      ran: ids,
      updates: Object.fromEntries(ok.map((id) => [id, { summaries: [summaries[Number(id.slice(10, -1))]] }])),
      errors: Object.fromEntries(failing.map((i) => [`summarize[${i}]`, { kind: 'expression', message: `node \`summarize[${i}]\`: no text` }])),
      details: Object.fromEntries(ok.slice(0, 3).map((id, i) => [id, { usage: { input_tokens: 100 + i, output_tokens: 10 } }])),
      state: s2, taken: [2], next: ['combine'],
    },
    { ran: ['combine'], updates: { combine: { report: s3.report } }, state: s3, taken: [3] },
  ]);
  return { run, initial };
}
