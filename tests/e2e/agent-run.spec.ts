// Agent runs in the run panel (format.md §4 (llm, tools) and §8; format.md §5, map edges; README, The editor): a `messages` field shown as a
// transcript in the State region with the messages each step added or replaced marked
// data-changed, a map step's instances listed under their node with the canvas counting them,
// token usage, and a model's reply streaming into the run panel while its step runs.
//
// Two kinds of tests. The "saved run" tests open a run record written in the shape the
// engine records (ids `node[i]` for map instances, `details[node].usage`, messages with ids)
// from the run history, so they check the editor's views alone. The "live run" tests run the
// graphs in tests/e2e/graphs with the engine in the browser.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from '@playwright/test';
import { ANSWER, CALL, EDITED, type Json, graph, mapRun, openSavedRun, showStep, transcriptRun } from './agent-runs';
import { expect, node, test } from './fixtures';
import { fastest, importJson, runRegion, runStatus, startRun, stateRegion, stepsRegion } from './run-panel';

// ---------------------------------------------------------------------------------------
// The transcript.

const transcript = (page: Page) => stateRegion(page).getByRole('list', { name: 'messages', exact: true });

/** Each shown message as "role|data-changed|id". */
async function shownMessages(page: Page): Promise<string[]> {
  return transcript(page)
    .locator(':scope > li')
    .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-role')}|${e.getAttribute('data-changed')}|${e.getAttribute('data-message-id')}`));
}

/** The transcript at steps 1–4 of the transcript graph's run, as both kinds of test expect it. */
async function expectTranscriptSteps(page: Page): Promise<void> {
  await showStep(page, 1);
  await expect.poll(() => shownMessages(page)).toEqual(['system|true|m1', 'user|true|m2']);
  await expect(stateRegion(page).locator('[data-key="messages"]')).toHaveAttribute('data-changed', 'true');

  await showStep(page, 2);
  await expect.poll(() => shownMessages(page)).toEqual(['system|false|m1', 'user|false|m2', 'assistant|true|m3']);
  const call = transcript(page).getByRole('listitem').filter({ has: page.getByRole('list', { name: 'Tool calls' }) });
  await expect(call.getByRole('list', { name: 'Tool calls' }).getByRole('listitem')).toHaveCount(1);
  await expect(call).toContainText('get_weather');
  await expect(call.getByLabel('Arguments')).toHaveText(JSON.stringify(CALL.tool_calls[0].arguments, null, 2));

  await showStep(page, 3);
  await expect.poll(() => shownMessages(page)).toEqual(['system|false|m1', 'user|false|m2', 'assistant|false|m3', 'tool|true|m4']);
  const result = transcript(page).locator('[data-message-id="m4"]');
  await expect(result).toContainText('Result of get_weather (call call_1)');
  await expect(result).toContainText('{"temp_c":18,"sky":"clear"}');

  // The question replaced in place (same id, new text) and the answer added.
  await showStep(page, 4);
  await expect.poll(() => shownMessages(page)).toEqual([
    'system|false|m1', 'user|true|m2', 'assistant|false|m3', 'tool|false|m4', 'assistant|true|m5',
  ]);
  await expect(transcript(page).locator('[data-message-id="m2"]')).toContainText('replaced in this step');
  await expect(transcript(page).locator('[data-message-id="m2"]')).toContainText(EDITED.content);
  await expect(transcript(page).locator('[data-message-id="m5"]')).toContainText('added in this step');
  await expect(transcript(page).locator('[data-message-id="m5"]')).toContainText(ANSWER.content);
  // A key the step did not touch is not a transcript and keeps the tree's look.
  await expect(stateRegion(page).locator('[data-key="turns"]')).toHaveAttribute('data-changed', 'true');
  await showStep(page, 3);
  await expect(stateRegion(page).locator('[data-key="turns"]')).toHaveAttribute('data-changed', 'false');
}

test('saved run: a messages field is a transcript; data-changed marks what each step added or replaced', async ({ editor: page }) => {
  await openSavedRun(page, graph('transcript.json'), 'ask', transcriptRun(), { messages: [], turns: 0 });
  await expectTranscriptSteps(page);
  // Before step 1 the transcript is empty and nothing is marked.
  await showStep(page, 0);
  await expect(transcript(page).getByRole('listitem')).toHaveCount(0);
  // Folding hides the messages and unfolding shows them again.
  await showStep(page, 4);
  await stateRegion(page).getByRole('button', { name: 'Expand messages' }).click();
  await expect(transcript(page)).toHaveCount(0);
  await stateRegion(page).getByRole('button', { name: 'Expand messages' }).click();
  await expect(transcript(page).locator(':scope > li')).toHaveCount(5);
});

test('live run: a graph writing messages shows its transcript step by step', async ({ editor: page }) => {
  await importJson(page, graph('transcript.json'), 'ask');
  await fastest(page);
  await startRun(page, {});
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expectTranscriptSteps(page);
});

// ---------------------------------------------------------------------------------------
// Map instances.

const instances = (page: Page, nodeId: string) => runRegion(page).getByRole('list', { name: `Instances of ${nodeId}`, exact: true });
const badge = (page: Page, nodeId: string): Locator => node(page, nodeId).getByRole('img', { name: /^\d+ instances$/ });

test('saved run: a map step lists its instances with their updates; the node counts them and counts as one node', async ({ editor: page }) => {
  const { run, initial } = mapRun(3, [1]);
  await openSavedRun(page, graph('map-reduce.json'), 'split', run, initial);
  await showStep(page, 2);
  // The step's row names the node once, with its count, and lists the instances under it.
  await expect(stepsRegion(page).getByRole('button', { name: '2 · summarize ×3', exact: true })).toBeVisible();
  const list = instances(page, 'summarize');
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(list.locator('.instance-name')).toHaveText(['summarize[0]', 'summarize[1]', 'summarize[2]']);
  await expect(list.locator('[data-instance="summarize[0]"]')).toContainText('summaries: [{"index":0,"text":"Summary of section 0"}]');
  await expect(list.locator('[data-instance="summarize[1]"]')).toContainText('no text');
  await expect(runRegion(page).locator('details.instances > summary')).toHaveText('summarize: 3 instances, 1 failed');
  // On the canvas: one node, with the count; an instance's failure is the node's.
  await expect(badge(page, 'summarize')).toHaveText('×3');
  await expect(badge(page, 'summarize')).toHaveAccessibleName('3 instances');
  await expect(node(page, 'summarize')).toHaveAttribute('data-instances', '3');
  await expect(node(page, 'summarize')).toHaveAttribute('data-status', 'error');
  await expect(page.locator('[data-node-id^="summarize["]')).toHaveCount(0);
  // The edges followed after the step: out of the mapped node, once.
  await expect(page.locator('[data-edge-from="summarize"][data-edge-to="combine"]')).toHaveAttribute('data-taken', 'true');
  // Token usage: the step's and the run's.
  await expect(stateRegion(page).getByRole('group', { name: 'Tokens of step 2' })).toContainText('Tokens: 201 in · 20 out tokens');
  await expect(runRegion(page).locator('.run-usage')).toHaveText('Run total: 201 in · 20 out tokens');
  // Another step ran no instances: no count, no list.
  await showStep(page, 3);
  await expect(badge(page, 'summarize')).toHaveCount(0);
  await expect(node(page, 'summarize')).not.toHaveAttribute('data-instances', /.*/);
  await expect(instances(page, 'summarize')).toHaveCount(0);
  await expect(node(page, 'combine')).toHaveAttribute('data-status', 'done');
});

/** What {@link timed} does in the page: move the Timeline to a step, or click an element. */
type Act = { timeline: number } | { click: string };

/**
 * Milliseconds from doing `act` in the page until `ready` (a CSS selector) matches and the
 * next frame is drawn: the editor's own time, without the test driver's.
 */
async function timed(page: Page, act: Act, ready: string): Promise<number> {
  return page.evaluate(
    ({ act, ready }) =>
      new Promise<number>((resolve) => {
        const t0 = performance.now();
        if ('timeline' in act) {
          const slider = document.querySelector('input[aria-label="Timeline"]') as HTMLInputElement;
          slider.value = String(act.timeline);
          slider.dispatchEvent(new Event('input', { bubbles: true }));
        } else {
          (document.querySelector(act.click) as HTMLElement).click();
        }
        const check = () =>
          document.querySelector(ready) ? requestAnimationFrame(() => resolve(performance.now() - t0)) : requestAnimationFrame(check);
        check();
      }),
    { act, ready },
  );
}

test('saved run: a step of 1,000 instances stays responsive, shows 50, and Show all lists every one', async ({ editor: page }) => {
  const { run, initial } = mapRun(1000);
  await openSavedRun(page, graph('map-reduce.json'), 'split', run, initial);
  await showStep(page, 1);
  const list = instances(page, 'summarize');
  const shown = await timed(page, { timeline: 2 }, '[data-node-id="summarize"][data-instances="1000"] .instances-badge');
  await expect(badge(page, 'summarize')).toHaveText('×1000');
  const opened = await timed(page, { click: 'details.instances > summary' }, 'details.instances[open] .instance-list > li:nth-child(50)');
  await expect(list.getByRole('listitem')).toHaveCount(50);
  const all = await timed(page, { click: 'details.instances .show-all' }, '.instance-list > li:nth-child(1000)');
  await expect(list.getByRole('listitem')).toHaveCount(1000);
  await expect(list.getByRole('listitem').last()).toContainText('summarize[999]');
  // Step 3 ends the run: combine, which ran in it, is drawn done.
  const away = await timed(page, { timeline: 3 }, '[data-node-id="combine"][data-status="done"]');
  await expect(list).toHaveCount(0);
  console.log(`1,000 instances: step shown in ${shown.toFixed(0)} ms, 50 listed in ${opened.toFixed(0)} ms, all in ${all.toFixed(0)} ms, next step in ${away.toFixed(0)} ms`);
  expect(shown, 'showing the step').toBeLessThan(500);
  expect(opened, 'unfolding its instances').toBeLessThan(200);
  expect(all, 'listing all 1,000').toBeLessThan(2000);
  expect(away, 'moving on').toBeLessThan(500);
});

test('live run: a map edge runs one instance per section; the step lists them and the node counts them', async ({ editor: page }) => {
  await importJson(page, graph('map-reduce.json'), 'split');
  await fastest(page);
  await startRun(page, { sections: ['intro', 'method', 'results'] });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await showStep(page, 2);
  await expect(badge(page, 'summarize')).toHaveText('×3');
  await expect(instances(page, 'summarize').locator('.instance-name')).toHaveText(['summarize[0]', 'summarize[1]', 'summarize[2]']);
  await expect(instances(page, 'summarize').locator('[data-instance="summarize[2]"]')).toContainText('Summary of results');
  await expect(node(page, 'summarize')).toHaveAttribute('data-status', 'active');
  await showStep(page, 3);
  await expect(node(page, 'summarize')).toHaveAttribute('data-status', 'done');
  await expect(stateRegion(page).locator('[data-key="report"]')).toContainText('3 summaries combined');

  // A thousand items run and show as quickly.
  await startRun(page, { sections: Array.from({ length: 1000 }, (_, i) => `s${i}`) });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await showStep(page, 2);
  await expect(badge(page, 'summarize')).toHaveText('×1000');
  await runRegion(page).locator('details.instances > summary').click();
  await expect(instances(page, 'summarize').getByRole('listitem')).toHaveCount(50);
});

// ---------------------------------------------------------------------------------------
// The gallery's agent templates, run as a person would.

async function openTemplate(page: Page, name: string, firstNode: string): Promise<void> {
  await page.getByRole('button', { name: `Open template ${name}`, exact: true }).click();
  await expect(node(page, firstNode)).toBeVisible();
}

test('template: the tool-calling agent calls a tool, reads its result and answers, in its transcript', async ({ editor: page }) => {
  await openTemplate(page, 'Tool-calling agent', 'agent');
  await fastest(page);
  await startRun(page, { question: 'What should I pack for Oslo?' });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  // Step 2: the model asks for a tool; step 3: the tools node answers that call.
  await showStep(page, 2);
  const call = transcript(page).locator('[data-message-id="agent:2:1"]');
  await expect(call).toHaveAttribute('data-changed', 'true');
  await expect(call.getByRole('list', { name: 'Tool calls' })).toContainText('weather');
  await showStep(page, 3);
  await expect.poll(() => shownMessages(page)).toEqual(['user|false|intake:1:1', 'assistant|false|agent:2:1', 'tool|true|tools:3:1']);
  await expect(transcript(page).locator('[data-message-id="tools:3:1"]')).toContainText(/Result of weather \(call /);
  // The agent and tools nodes take turns on the canvas.
  await expect(node(page, 'tools')).toHaveAttribute('data-status', 'active');
  await expect(node(page, 'agent')).toHaveAttribute('data-status', 'done');
});

test('template: the map-reduce summary runs one instance per section, listed and counted', async ({ editor: page }) => {
  await openTemplate(page, 'Map-reduce summary', 'summarize');
  await fastest(page);
  const document = '## Intro\nWhy rivers matter.\n\n## Method\nWe walked along three rivers.\n\n## Results\nAll three reach the sea.';
  await startRun(page, { document });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await showStep(page, 2);
  await expect(badge(page, 'summarize')).toHaveText('×3');
  await expect(stepsRegion(page).getByRole('button', { name: '2 · summarize ×3', exact: true })).toBeVisible();
  const list = instances(page, 'summarize');
  await expect(list.locator('.instance-name')).toHaveText(['summarize[0]', 'summarize[1]', 'summarize[2]']);
  await expect(list.locator('[data-instance="summarize[1]"]')).toContainText('Method: We walked along three rivers.');
  await showStep(page, 3);
  await expect(node(page, 'combine')).toHaveAttribute('data-status', 'done');
  await expect(badge(page, 'summarize')).toHaveCount(0);
});

// ---------------------------------------------------------------------------------------
// A reply streaming in.

/** The reply the fake model streams, in the pieces it sends them. */
const PIECES = ['Rivers ', 'carry ', '🌊 ', 'water ', 'to ', 'the ', 'sea, ', 'mostly. ', 'Fin.'];

/**
 * A local OpenAI-compatible server: a request with `stream: true` gets server-sent events, one
 * piece every `gapMs` (the first `é`-like multibyte piece split across two writes), else one
 * JSON reply. Answers CORS preflights for the editor's origin.
 */
async function fakeModel(gapMs: number): Promise<{ url: string; requests: Json[]; close: () => Promise<void> }> {
  const requests: Json[] = [];
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'authorization, content-type',
    'access-control-allow-methods': 'POST, OPTIONS',
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const parsed = JSON.parse(body || '{}');
      requests.push(parsed);
      if (!parsed.stream) {
        res.writeHead(200, { 'content-type': 'application/json', ...cors });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: PIECES.join('') } }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...cors });
      for (const piece of PIECES) {
        const event = Buffer.from(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}\n\n`);
        // Cut inside the event (and inside 🌊's four bytes) so a piece arrives in two reads.
        const cut = piece.startsWith('🌊') ? event.indexOf(Buffer.from('🌊')) + 2 : Math.floor(event.length / 2);
        res.write(event.subarray(0, cut));
        await new Promise((r) => setTimeout(r, 20));
        res.write(event.subarray(cut));
        await new Promise((r) => setTimeout(r, gapMs));
      }
      const usage = { prompt_tokens: 12, completion_tokens: PIECES.length, total_tokens: 12 + PIECES.length };
      res.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

test('live run: an llm reply streams into the run panel while its step runs, and the state holds the whole reply', async ({ editor: page }) => {
  const model = await fakeModel(250);
  try {
    const doc = graph('stream.json');
    doc.nodes[1].model.base_url = model.url;
    await importJson(page, doc, 'write');
    await fastest(page);
    await startRun(page, { topic: 'rivers' });
    // Its origin is new to the editor: run anyway (the request goes without a key).
    const dialog = page.getByRole('dialog', { name: 'New origins' });
    await dialog.getByRole('button', { name: 'Run anyway', exact: true }).click();
    const live = runRegion(page).getByRole('region', { name: 'Reply of write so far' });
    // Part of the reply is on screen while the step still runs.
    await expect(live).toContainText('Rivers carry');
    await expect(runStatus(page)).toHaveAttribute('data-run-status', 'running');
    const partial = await live.locator('.live-text').textContent();
    expect(partial?.length ?? 0).toBeLessThan(PIECES.join('').length);
    // 🌊's bytes came in two reads and show as one character, not two replacement marks.
    await expect(live).toContainText('carry 🌊 water');
    // The step lands: the live text goes, the state holds the whole reply.
    await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
    await expect(live).toHaveCount(0);
    await expect(stateRegion(page).locator('[data-key="reply"]')).toContainText(PIECES.join(''));
    expect(model.requests.at(-1)?.stream, 'the editor asks for a stream').toBe(true);
    // The usage the server reported at the end of the stream is the step's and the run's.
    await expect(runRegion(page).locator('.run-usage')).toHaveText(`Run total: 12 in · ${PIECES.length} out tokens`);
  } finally {
    await model.close();
  }
});

test('a reply over 10 MiB is refused while it downloads, as the native hosts refuse it', async ({ editor: page }) => {
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS' };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain', ...cors });
    res.end('x'.repeat(11 * 1024 * 1024));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  try {
    const doc = {
      format: 'switchyard/graph@1',
      name: 'Big reply',
      state: { body: { type: 'any' } },
      nodes: [
        { id: 'start', kind: 'start' },
        { id: 'fetch', kind: 'http', method: 'GET', url: `http://127.0.0.1:${port}/big`, writes: 'body' },
        { id: 'end', kind: 'end' },
      ],
      edges: [
        { from: 'start', to: 'fetch' },
        { from: 'fetch', to: 'end' },
      ],
    };
    await importJson(page, doc, 'fetch');
    await fastest(page);
    await startRun(page, {});
    await page.getByRole('dialog', { name: 'New origins' }).getByRole('button', { name: 'Run anyway', exact: true }).click();
    await expect(runStatus(page)).toHaveAttribute('data-run-status', 'failed');
    await expect(node(page, 'fetch')).toHaveAttribute('data-status', 'error');
    await expect(page.getByRole('alert').filter({ hasText: 'fetch' })).toContainText('larger than 10 MiB');
  } finally {
    await new Promise((r) => server.close(() => r(undefined)));
  }
});
