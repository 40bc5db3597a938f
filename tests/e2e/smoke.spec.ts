import { KINDS, addNode, connectChain, dragNode, edge, edgePairs, expect, handle, node, nodeIds, test } from './fixtures';

test('the editor loads with its toolbar, palette, panels and a start and an end node', async ({ editor: page }) => {
  for (const name of ['New', 'Import', 'Export', 'Undo', 'Redo', 'Fit view', 'Auto layout', 'Zoom in', 'Zoom out']) {
    await expect(page.getByRole('button', { name, exact: true }), `button ${name}`).toBeVisible();
  }
  for (const kind of KINDS) {
    await expect(page.getByRole('button', { name: `Add ${kind}`, exact: true }), `button Add ${kind}`).toBeVisible();
  }
  for (const name of ['Inspector', 'Library']) {
    await expect(page.getByRole('region', { name, exact: true }), `region ${name}`).toBeVisible();
  }

  expect((await nodeIds(page)).sort()).toEqual(['end', 'start']);
  await expect(handle(page, 'start', 'out')).toHaveCount(1);
  await expect(handle(page, 'start', 'in')).toHaveCount(0);
  await expect(handle(page, 'end', 'in')).toHaveCount(1);
  await expect(handle(page, 'end', 'out')).toHaveCount(0);
});

test('a graph built by mouse: start → set → end', async ({ editor: page }) => {
  const initial = (await edgePairs(page)).map((p) => p.join('→'));
  // Put start and end apart, with room for a node between them.
  await dragNode(page, 'start', { x: 120, y: 200 });
  await dragNode(page, 'end', { x: 760, y: 200 });
  const set = await addNode(page, 'Set');
  const at = await dragNode(page, set, { x: 440, y: 200 });
  expect(Math.abs(at.x - 440), `the set node lands where it was dropped (x ${at.x})`).toBeLessThan(30);
  expect(Math.abs(at.y - 200), `the set node lands where it was dropped (y ${at.y})`).toBeLessThan(30);
  await expect(node(page, set)).toHaveAttribute('data-kind', 'set');

  await connectChain(page, ['start', set, 'end']);

  await expect(edge(page, 'start', set)).toHaveCount(1);
  await expect(edge(page, set, 'end')).toHaveCount(1);
  expect((await edgePairs(page)).map((p) => p.join('→')).sort()).toEqual(
    [...initial, `start→${set}`, `${set}→end`].sort(),
  );
});
