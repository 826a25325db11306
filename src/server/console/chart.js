// A small inline-SVG latency chart: one bar per recent call, height by duration, failed calls
// marked, with a <title> summary for screen readers and tooltips.

const SVG = 'http://www.w3.org/2000/svg';

/** The value at quantile q (0..1) of numbers, by the nearest-rank method. */
export function quantile(values, q) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

/**
 * @param {string} tool
 * @param {{ duration_ms: number, is_error: boolean }[]} samples oldest first
 * @param {{ width?: number, height?: number, bars?: number }} [size]
 * @returns {SVGSVGElement}
 */
export function latencyChart(tool, samples, size = {}) {
  const width = size.width ?? 160;
  const height = size.height ?? 36;
  const bars = size.bars ?? 30;
  const recent = samples.slice(-bars);
  const durations = recent.map((sample) => sample.duration_ms);
  const max = Math.max(1, ...durations);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('role', 'img');
  svg.setAttribute('class', 'latency-chart');
  const title = document.createElementNS(SVG, 'title');
  title.textContent = `${tool}: ${recent.length} recent calls, median ${Math.round(quantile(durations, 0.5))} ms, max ${Math.round(max)} ms`;
  svg.append(title);
  const slot = width / bars;
  // The newest call is always the rightmost bar.
  const offset = bars - recent.length;
  recent.forEach((sample, position) => {
    const index = offset + position;
    const barHeight = Math.max(1, (sample.duration_ms / max) * (height - 2));
    const rect = document.createElementNS(SVG, 'rect');
    rect.setAttribute('x', (index * slot + 1).toFixed(1));
    rect.setAttribute('y', (height - barHeight).toFixed(1));
    rect.setAttribute('width', Math.max(1, slot - 2).toFixed(1));
    rect.setAttribute('height', barHeight.toFixed(1));
    rect.setAttribute('class', sample.is_error ? 'bar bar-error' : 'bar');
    const tip = document.createElementNS(SVG, 'title');
    tip.textContent = `${Math.round(sample.duration_ms)} ms${sample.is_error ? ' (error)' : ''}`;
    rect.append(tip);
    svg.append(rect);
  });
  return svg;
}
