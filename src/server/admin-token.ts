/**
 * The admin token: the secret that lists and decides approvals (`/v1/approvals`), which a person has
 * and the tools do not; it also works as the bearer token on every other route.
 *
 * Set by TOOLHOST_ADMIN_TOKEN or the config key `admin_token` (at least 16 visible ASCII characters,
 * different from the regular token). Otherwise the daemon generates one per start (32 random bytes,
 * base64url), `toolhost serve` prints it once on stderr, and the daemon writes it, mode 0600, to
 * `<directory>/admin-token-<port>`, removed at shutdown, where <directory> is
 * `$XDG_RUNTIME_DIR/toolhost` (an absolute XDG_RUNTIME_DIR), else the user cache directory
 * (`$XDG_CACHE_HOME/toolhost`, else `~/.cache/toolhost`). The directory is created 0700 (an existing
 * one is tightened to 0700); a symbolic link, a non-directory or a directory another user owns is
 * refused. The file is written atomically (a fresh 0600 file renamed over the old one). No file is
 * written when the directory lies inside the workspace, where tools read: the token is then only
 * printed.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readFile, realpath, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import { ToolHostError } from '../errors.ts';

/** Fewest characters a configured admin token may have. */
export const ADMIN_TOKEN_MIN_LENGTH = 16;
/** Random bytes of a generated admin token (43 base64url characters). */
export const ADMIN_TOKEN_BYTES = 32;
/** The folder under XDG_RUNTIME_DIR or the user cache directory. */
export const ADMIN_TOKEN_FOLDER = 'toolhost';

/** Visible ASCII, no spaces (it travels in an `Authorization: Bearer` header), at least 16 characters. */
const ADMIN_TOKEN_PATTERN = new RegExp(`^[\\x21-\\x7E]{${ADMIN_TOKEN_MIN_LENGTH},}$`);

/** Why `value` cannot be an admin token, or undefined when it can. */
export function adminTokenProblem(value: string): string | undefined {
  return ADMIN_TOKEN_PATTERN.test(value) ? undefined : `must be at least ${ADMIN_TOKEN_MIN_LENGTH} visible ASCII characters without spaces`;
}

/** A fresh admin token: 32 random bytes, base64url. */
export function generateAdminToken(): string {
  return randomBytes(ADMIN_TOKEN_BYTES).toString('base64url');
}

/** The name of a daemon's token file: one per port, so daemons on different ports coexist. */
export function adminTokenFileName(port: number): string {
  return `admin-token-${port}`;
}

/**
 * Where generated admin tokens are written: `$XDG_RUNTIME_DIR/toolhost` when XDG_RUNTIME_DIR is an
 * absolute path, else `$XDG_CACHE_HOME/toolhost` (absolute), else `~/.cache/toolhost`.
 */
export function defaultAdminTokenDirectory(env: Readonly<Record<string, string | undefined>> = process.env, home: string = homedir()): string {
  const runtime = env['XDG_RUNTIME_DIR'];
  if (runtime !== undefined && runtime !== '' && isAbsolute(runtime)) return join(runtime, ADMIN_TOKEN_FOLDER);
  const cache = env['XDG_CACHE_HOME'];
  return cache !== undefined && cache !== '' && isAbsolute(cache) ? join(cache, ADMIN_TOKEN_FOLDER) : join(home, '.cache', ADMIN_TOKEN_FOLDER);
}

/** The daemon's admin token and where a person finds it. */
export interface AdminToken {
  readonly token: string;
  /** `configured` (TOOLHOST_ADMIN_TOKEN, config `admin_token`, or the embedder) or `generated` at start. */
  readonly source: 'configured' | 'generated';
  /** The file holding a generated token while the daemon runs; undefined when none was written. */
  readonly file: string | undefined;
  /** Why a generated token was not written to a file (e.g. the directory is inside the workspace). */
  readonly notWritten: string | undefined;
}

/** Where a person finds the admin token, for error messages and the console. */
export function adminTokenWhereabouts(admin: Pick<AdminToken, 'source' | 'file'>): string {
  if (admin.source === 'configured') return 'It is the value of TOOLHOST_ADMIN_TOKEN (or the config key admin_token) the daemon was started with.';
  const file = admin.file === undefined ? '' : ` and wrote it to ${admin.file} (mode 0600)`;
  return `\`toolhost serve\` printed it on stderr at start-up${file}; TOOLHOST_ADMIN_TOKEN or the config key admin_token set it instead.`;
}

function refuse(directory: string, why: string): ToolHostError {
  return new ToolHostError(
    'SERVER_START_REFUSED',
    `Cannot keep the admin token in ${directory}: ${why}. Fix the directory, or set TOOLHOST_ADMIN_TOKEN (or the config key admin_token) so no file is written.`,
  );
}

/** True when `inner` is `outer` or lies under it (both real paths). */
function isWithin(inner: string, outer: string): boolean {
  const path = relative(outer, inner);
  return path === '' || (!path.startsWith(`..${sep}`) && path !== '..' && !isAbsolute(path));
}

/**
 * Makes sure `directory` exists as a private folder of this user: created 0700 when missing; a
 * symbolic link, a non-directory or another user's directory is refused; group and other access is
 * removed. Returns the directory's real path, or undefined when it lies inside `workspaceRoot`
 * (tools read there, so no file may be written).
 * @throws ToolHostError('SERVER_START_REFUSED')
 */
export async function prepareAdminTokenDirectory(directory: string, workspaceRoot: string | undefined): Promise<string | undefined> {
  const existing = await lstat(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw refuse(directory, `it cannot be examined (${error.code ?? error.message})`);
  });
  if (existing?.isSymbolicLink()) throw refuse(directory, 'it is a symbolic link');
  if (existing !== undefined && !existing.isDirectory()) throw refuse(directory, 'it is not a directory');
  if (existing === undefined) {
    try {
      await mkdir(directory, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw refuse(directory, `it cannot be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  let handle;
  try {
    // O_NOFOLLOW: a link swapped in since lstat is refused too.
    handle = await open(directory, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw refuse(directory, code === 'ELOOP' ? 'it is a symbolic link' : code === 'ENOTDIR' ? 'it is not a directory' : `it cannot be opened (${code ?? (error as Error).message})`);
  }
  try {
    const stats = await handle.stat();
    const uid = process.getuid?.();
    if (uid !== undefined && stats.uid !== uid) throw refuse(directory, `it belongs to another user (uid ${stats.uid})`);
    if ((stats.mode & 0o077) !== 0) await handle.chmod(0o700);
  } finally {
    await handle.close();
  }
  const real = await realpath(directory);
  if (workspaceRoot !== undefined && isWithin(real, await realpath(workspaceRoot).catch(() => workspaceRoot))) return undefined;
  return real;
}

/**
 * Writes `token` to `<directory>/admin-token-<port>`, mode 0600, atomically: a new file (never an
 * existing one, never through a link) renamed over the old. Returns the file's path.
 */
export async function writeAdminTokenFile(directory: string, port: number, token: string): Promise<string> {
  const file = join(directory, adminTokenFileName(port));
  const temporary = join(directory, `.${adminTokenFileName(port)}.${process.pid}.${randomBytes(6).toString('hex')}`);
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(`${token}\n`, 'utf8');
    await handle.chmod(0o600);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return file;
}

/** Removes the token file if it still holds `token` (another daemon on the same port may have replaced it). */
export async function removeAdminTokenFile(file: string, token: string): Promise<void> {
  const content = await readFile(file, 'utf8').catch(() => undefined);
  if (content?.trim() === token) await rm(file, { force: true });
}

/**
 * The admin token of a daemon about to listen: `configured` when given, else a generated one whose
 * directory is prepared (`writeAdminTokenFile` writes the file once the port is known).
 * @throws ToolHostError('SERVER_START_REFUSED') for a bad configured token, one equal to the regular
 *         token, or an unusable directory.
 */
export async function resolveAdminToken(options: { adminToken?: string | undefined; token?: string | undefined; directory?: string | undefined; workspaceRoot?: string | undefined }): Promise<{ token: string; source: AdminToken['source']; directory: string | undefined; notWritten: string | undefined }> {
  if (options.adminToken !== undefined) {
    const problem = adminTokenProblem(options.adminToken);
    if (problem !== undefined) throw new ToolHostError('SERVER_START_REFUSED', `The admin token ${problem}.`);
    if (options.token !== undefined && options.token === options.adminToken) {
      throw new ToolHostError('SERVER_START_REFUSED', 'The admin token must differ from the regular token (--token, TOOLHOST_TOKEN): whoever holds the regular token must not be able to decide approvals.');
    }
    return { token: options.adminToken, source: 'configured', directory: undefined, notWritten: undefined };
  }
  const token = generateAdminToken();
  if (options.directory === undefined) return { token, source: 'generated', directory: undefined, notWritten: 'no directory was given' };
  const directory = await prepareAdminTokenDirectory(options.directory, options.workspaceRoot);
  return {
    token,
    source: 'generated',
    directory,
    notWritten: directory === undefined ? `${options.directory} lies inside the workspace, where tools can read it` : undefined,
  };
}
