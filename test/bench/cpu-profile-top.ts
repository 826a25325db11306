/**
 * Reads V8 .cpuprofile files (node --cpu-prof) and ranks functions by self time: the samples whose
 * top frame is that function, as a share of all non-idle samples of the profile. Used by
 * profile-http.ts; also runnable alone: `node --import tsx test/bench/cpu-profile-top.ts <file...>`.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTimeEntry {
  /** `file:function:line` with file relative to the project (node: internals keep their URL). */
  frame: string;
  selfMs: number;
  /** Share of the profile's non-idle time, 0..100. */
  percent: number;
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  entries: SelfTimeEntry[];
}

function frameName(node: ProfileNode, root: string): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.startsWith('file://') ? relative(root, new URL(url).pathname) : url;
  return `${file || '(native)'}:${functionName || '(anonymous)'}${file ? `:${lineNumber + 1}` : ''}`;
}

/** Self time per frame, biggest first. */
export function summarizeProfile(file: string, root: string): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<string, number>();
  let idleUs = 0;
  let busyUs = 0;
  profile.samples.forEach((id, index) => {
    // A sample's delta is the time until the next sample; attribute it to this sample's frame.
    const delta = profile.timeDeltas[index + 1] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    if (node.callFrame.functionName === '(idle)') {
      idleUs += delta;
      return;
    }
    busyUs += delta;
    const name = frameName(node, root);
    selfUs.set(name, (selfUs.get(name) ?? 0) + delta);
  });
  const entries = [...selfUs.entries()]
    .map(([frame, us]) => ({ frame, selfMs: us / 1000, percent: (100 * us) / Math.max(1, busyUs) }))
    .sort((a, b) => b.selfMs - a.selfMs);
  return { busyMs: busyUs / 1000, idleMs: idleUs / 1000, entries };
}

/** A markdown table of the top `count` entries; with `calls`, also the self time per call. */
export function renderTop(summary: ProfileSummary, count: number, calls?: number): string {
  const lines = [`| # | self % | self ms |${calls ? ' µs/call |' : ''} frame (file:function:line) |`, `|---:|---:|---:|${calls ? '---:|' : ''}---|`];
  summary.entries.slice(0, count).forEach((entry, index) => {
    const perCall = calls ? ` ${((entry.selfMs * 1000) / calls).toFixed(1)} |` : '';
    lines.push(`| ${index + 1} | ${entry.percent.toFixed(1)} | ${entry.selfMs.toFixed(0)} |${perCall} \`${entry.frame}\` |`);
  });
  return lines.join('\n');
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  for (const file of process.argv.slice(2)) {
    const summary = summarizeProfile(file, process.cwd());
    console.log(`${file}: busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms\n${renderTop(summary, Number(process.env['TOP'] ?? 20))}\n`);
  }
}
