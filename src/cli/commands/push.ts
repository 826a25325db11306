/**
 * `toolhost push <file.wasm> <oci-ref> [--sign --key <cosign.key>] [--plain-http]`: packs the
 * component with its sidecars (src/distribution/oci/artifact.ts), pushes blobs and manifest, signs
 * the manifest digest with `--sign`, and prints the pushed digest (alone on stdout, for scripts).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { OciError } from '../../distribution/registry-types.ts';
import { packTool, pushArtifact, readToolFiles, SIDECAR_LAYERS, stemOf } from '../../distribution/oci/artifact.ts';
import { formatOciReference, parseOciReference } from '../../distribution/oci/reference.ts';
import { signArtifact } from '../../distribution/trust-port.ts';
import type { CommandContext } from '../command-context.ts';
import { asCliError, refused, registryClient } from '../distribution-setup.ts';
import { EXIT_OK, usageError } from '../output.ts';

interface PushFlags {
  sign?: boolean;
  key?: string;
  plainHttp?: boolean;
}

export function definePushCommand(command: Command, context: CommandContext): Command {
  command
    .argument('<file.wasm>', 'the component to push; its .policy.json, .tool.json and spec sidecars go with it')
    .argument('<oci-ref>', 'where to push: oci://registry/repository:tag')
    .option('--sign', 'sign the pushed manifest digest (cosign-compatible) with --key')
    .option('--key <cosign.key>', 'the cosign private key for --sign (password from COSIGN_PASSWORD)')
    .option('--plain-http', 'reach a registry that is not on loopback over plain HTTP (loopback registries need no flag)');
  command.addHelpText(
    'after',
    [
      '',
      'Prints the manifest digest (sha256:…) on stdout. Exit status: 0 pushed, 1 refused or failed, 2 usage error.',
      '',
      'Examples:',
      '  toolhost push greet.wasm oci://127.0.0.1:5000/tools/greet:1.0',
      '  COSIGN_PASSWORD=… toolhost push greet.wasm oci://registry.example/tools/greet:1.0 --sign --key cosign.key',
    ].join('\n'),
  );
  command.action(
    context.action(async (fileArgument: string, refText: string, flags: PushFlags) => {
      const { io } = context;
      const file = resolve(io.cwd, fileArgument);
      if (!existsSync(file) || !statSync(file).isFile()) throw usageError(`${fileArgument}: no such file`);
      if (!file.endsWith('.wasm')) throw usageError(`${fileArgument}: expected a .wasm file`);
      if (flags.sign === true && flags.key === undefined) throw usageError('--sign needs --key <cosign.key>');
      if (flags.key !== undefined && flags.sign !== true) throw usageError('--key is for --sign: add --sign');
      const keyPath = flags.key === undefined ? undefined : resolve(io.cwd, flags.key);
      if (keyPath !== undefined && !existsSync(keyPath)) throw usageError(`--key ${flags.key}: no such file`);
      try {
        const ref = parseOciReference(refText);
        const stem = stemOf(file);
        const files = readToolFiles(file);
        const packed = packTool(stem, files);
        const client = registryClient(flags, io);
        const digest = await pushArtifact(client, ref, packed);
        const sidecars = SIDECAR_LAYERS.filter((layer) => files.sidecars[layer.key] !== undefined).map((layer) => `${stem}${layer.suffix}`);
        io.stderr.write(`toolhost: pushed ${formatOciReference({ ...ref, digest })} (${stem}.wasm${sidecars.length > 0 ? ` + ${sidecars.join(', ')}` : ''})\n`);
        if (flags.sign === true && keyPath !== undefined) {
          try {
            const signed = await signArtifact(client, { ...ref, digest }, digest, { key: keyPath });
            io.stderr.write(`toolhost: signed ${digest}${signed.signer === undefined ? '' : ` as ${signed.signer}`} (${signed.signatureRef})\n`);
          } catch (error) {
            throw refused('sign_failed', `pushed ${digest} but could not sign it: ${(error as Error).message}`);
          }
        }
        io.stdout.write(`${digest}\n`);
        return EXIT_OK;
      } catch (error) {
        if (error instanceof OciError) throw refused(error.code, error.message);
        throw asCliError(error);
      }
    }),
  );
  return command;
}
