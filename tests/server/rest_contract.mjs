// The REST server against the Iceberg REST OpenAPI document: starts
// `floe serve --port 0`, runs a scripted sequence over every endpoint floe
// serves (success and error paths), and validates every response body
// against the YAML's component schemas with ajv (JSON Schema 2020-12).
// Request bodies are validated too, dispatching each update / requirement
// on its `action` / `type` discriminator to the schema the mapping names
// (the YAML leaves that unenforced: ../shared/tools/ORACLES.md).
//
// Usage: node rest_contract.mjs FLOE_BINARY SPEC_YAML TOOLS_DIR
// Exits 0 when every call answers as the spec says, 1 otherwise or when ajv
// or yaml is missing (77, skip, with FLOE_ALLOW_MISSING_TOOLS=1).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { requireNodeModules } from '../testing/required_tools.mjs';

const [floe, specPath, tools] = process.argv.slice(2);
requireNodeModules(tools, ['ajv', 'yaml']);
const require = createRequire(path.join(path.resolve(tools), '/'));
const Ajv2020 = require('ajv/dist/2020').default;
const YAML = require('yaml');

// --- the schemas -------------------------------------------------------------

// OpenAPI's `nullable: true` is not JSON Schema: rewrite it as a null type.
function denullable(node) {
  if (Array.isArray(node)) return node.forEach(denullable);
  if (node === null || typeof node !== 'object') return;
  if (node.nullable === true) {
    if (typeof node.type === 'string') node.type = [node.type, 'null'];
    else if (node.$ref) { node.anyOf = [{ $ref: node.$ref }, { type: 'null' }]; delete node.$ref; }
    delete node.nullable;
  }
  for (const v of Object.values(node)) denullable(v);
}
const spec = YAML.parse(readFileSync(specPath, 'utf8'));
denullable(spec);
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ $id: 'spec', components: spec.components });
const schemaCount = Object.keys(spec.components.schemas).length;
const validators = new Map();
function validator(name) {
  if (!validators.has(name)) {
    const v = ajv.getSchema(`spec#/components/schemas/${name}`);
    if (!v) throw new Error(`no schema ${name}`);
    validators.set(name, v);
  }
  return validators.get(name);
}
for (const name of Object.keys(spec.components.schemas)) validator(name);  // all compile

const failures = [];
function check(what, name, value) {
  const v = validator(name);
  if (!v(value)) failures.push(`${what}: not a valid ${name}: ${ajv.errorsText(v.errors)}\n  ${JSON.stringify(value).slice(0, 300)}`);
}
// Each update and requirement against the variant its discriminator names.
const updateMapping = spec.components.schemas.BaseUpdate.discriminator.mapping;
const requirementMapping = spec.components.schemas.TableRequirement.discriminator.mapping;
function checkChanges(what, change) {
  check(what, 'CommitTableRequest', change);
  for (const [i, u] of (change.updates ?? []).entries()) {
    const target = updateMapping[u.action];
    if (!target) failures.push(`${what}: updates[${i}] action ${u.action} is not in the spec`);
    else check(`${what} updates[${i}]`, target.split('/').pop(), u);
  }
  for (const [i, r] of (change.requirements ?? []).entries()) {
    const target = requirementMapping[r.type];
    if (!target) failures.push(`${what}: requirements[${i}] type ${r.type} is not in the spec`);
    else check(`${what} requirements[${i}]`, target.split('/').pop(), r);
  }
}

// --- the server --------------------------------------------------------------

const dir = mkdtempSync(path.join(os.tmpdir(), 'floe-rest-contract-'));
const config = path.join(dir, 'serve.json');
writeFileSync(config, JSON.stringify({
  'signing-key': 'k'.repeat(40),
  'max-body-bytes': 65536,
  clients: [{ 'client-id': 'admin', 'client-secret': 'admin-secret', scopes: ['catalog:admin'] },
            { 'client-id': 'reader', 'client-secret': 'reader-secret', scopes: ['ro:*'] }],
}));
const server = spawn(floe, ['--warehouse', path.join(dir, 'warehouse'), 'serve', '--port', '0', '--config', config],
                     { stdio: ['ignore', 'pipe', 'pipe'] });
let stderr = '';
server.stderr.on('data', (d) => { stderr += d; });
const base = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`floe serve did not start: ${stderr}`)), 30000);
  readline.createInterface({ input: server.stdout }).once('line', (line) => {
    clearTimeout(timer);
    const m = /^listening on (http:\/\/\S+)$/.exec(line);
    if (m) resolve(m[1]); else reject(new Error(`unexpected first line: ${line}`));
  });
  server.once('exit', (code) => reject(new Error(`floe serve exited with ${code}: ${stderr}`)));
});

let token = '';
async function call(method, p, { body, form, headers = {}, auth = true } = {}) {
  const h = { ...headers };
  if (auth && token) h.Authorization = `Bearer ${token}`;
  let payload;
  if (form !== undefined) { h['Content-Type'] = 'application/x-www-form-urlencoded'; payload = new URLSearchParams(form).toString(); }
  else if (body !== undefined) { h['Content-Type'] = 'application/json'; payload = typeof body === 'string' ? body : JSON.stringify(body); }
  const res = await fetch(base + p, { method, headers: h, body: payload });
  const text = await res.text();
  let json;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  return { status: res.status, json, text, headers: res.headers };
}
// One scripted step: the status expected, and the schema of the body.
async function step(what, method, p, options, expect, schema) {
  const r = await call(method, p, options);
  if (r.status !== expect) {
    failures.push(`${what}: ${method} ${p} answered ${r.status}, expected ${expect}: ${r.text.slice(0, 300)}`);
    return r;
  }
  if (method === 'HEAD') {
    // spec: HEAD answers carry no body, errors included.
    if (r.text !== '') failures.push(`${what}: HEAD answered a body: ${r.text.slice(0, 100)}`);
  } else if (r.status >= 400) {
    if (schema === 'OAuthError') check(what, 'OAuthError', r.json);
    else {
      check(what, 'IcebergErrorResponse', r.json);
      if (r.json?.error?.code !== r.status) failures.push(`${what}: error code ${r.json?.error?.code} != ${r.status}`);
      if (schema && r.json?.error?.type !== schema) failures.push(`${what}: error type ${r.json?.error?.type}, expected ${schema}`);
    }
  } else if (schema) {
    check(what, schema, r.json);
  } else if (r.text !== '') {
    failures.push(`${what}: expected no body, got ${r.text.slice(0, 100)}`);
  }
  return r;
}

const schema = { type: 'struct', 'schema-id': 0, fields: [
  { id: 1, name: 'id', required: true, type: 'long' },
  { id: 2, name: 'ts', required: false, type: 'timestamptz' },
  { id: 3, name: 'tags', required: false, type: { type: 'list', 'element-id': 4, element: 'string', 'element-required': false } }] };

try {
  // OAuth and config.
  await step('no token', 'GET', '/v1/config', { auth: false }, 401, 'NotAuthorizedException');
  await step('bad secret', 'POST', '/v1/oauth/tokens', { auth: false, form: { grant_type: 'client_credentials', client_id: 'admin', client_secret: 'x' } }, 401, 'OAuthError');
  await step('bad grant', 'POST', '/v1/oauth/tokens', { auth: false, form: { grant_type: 'password' } }, 400, 'OAuthError');
  const reader = await step('reader token', 'POST', '/v1/oauth/tokens', { auth: false, form: { grant_type: 'client_credentials', client_id: 'reader', client_secret: 'reader-secret', scope: 'catalog' } }, 200, 'OAuthTokenResponse');
  const admin = await step('admin token', 'POST', '/v1/oauth/tokens', { auth: false, form: { grant_type: 'client_credentials', client_id: 'admin', client_secret: 'admin-secret', scope: 'catalog' } }, 200, 'OAuthTokenResponse');
  token = admin.json?.access_token ?? '';
  await step('garbage token', 'GET', '/v1/config', { auth: false, headers: { Authorization: 'Bearer nope' } }, 401, 'NotAuthorizedException');
  const cfg = await step('config', 'GET', '/v1/config', {}, 200, 'CatalogConfig');
  await step('config for the warehouse', 'GET', `/v1/config?warehouse=${encodeURIComponent(cfg.json?.defaults?.warehouse ?? '')}`, {}, 200, 'CatalogConfig');
  await step('config for another warehouse', 'GET', '/v1/config?warehouse=s3%3A%2F%2Fother%2Fwh', {}, 400, 'BadRequestException');
  for (const e of cfg.json?.endpoints ?? []) {
    const [verb, route] = e.split(' ');
    const item = spec.paths[route];
    if (!item || !item[verb.toLowerCase()]) failures.push(`config: endpoint ${e} is not in the spec`);
  }

  // Namespaces.
  await step('create ns', 'POST', '/v1/namespaces', { body: { namespace: ['shop'], properties: { owner: 'ann' } } }, 200, 'CreateNamespaceResponse');
  await step('create nested', 'POST', '/v1/namespaces', { body: { namespace: ['shop', 'eu'] } }, 200, 'CreateNamespaceResponse');
  await step('create again', 'POST', '/v1/namespaces', { body: { namespace: ['shop'] } }, 409, 'AlreadyExistsException');
  await step('create malformed', 'POST', '/v1/namespaces', { body: '{"namespace": "shop"' }, 400, 'BadRequestException');
  await step('create wrong type', 'POST', '/v1/namespaces', { body: { namespace: 'shop' } }, 400, 'BadRequestException');
  await step('list ns', 'GET', '/v1/namespaces', {}, 200, 'ListNamespacesResponse');
  const page = await step('list ns paged', 'GET', '/v1/namespaces?parent=shop&pageToken=&pageSize=1', {}, 200, 'ListNamespacesResponse');
  if (page.json && page.json['next-page-token'] === undefined) failures.push('list ns paged: no next-page-token');
  await step('load ns', 'GET', '/v1/namespaces/shop', {}, 200, 'GetNamespaceResponse');
  await step('load nested ns', 'GET', '/v1/namespaces/shop%1Feu', {}, 200, 'GetNamespaceResponse');
  await step('head ns', 'HEAD', '/v1/namespaces/shop', {}, 204, null);
  await step('load missing ns', 'GET', '/v1/namespaces/nope', {}, 404, 'NoSuchNamespaceException');
  await step('ns properties', 'POST', '/v1/namespaces/shop/properties', { body: { removals: ['owner', 'ghost'], updates: { tier: 'gold' } } }, 200, 'UpdateNamespacePropertiesResponse');
  await step('ns properties clash', 'POST', '/v1/namespaces/shop/properties', { body: { removals: ['a'], updates: { a: '1' } } }, 422, 'UnprocessableEntityException');

  // Tables.
  const create = { name: 'orders', schema, 'partition-spec': { 'spec-id': 0, fields: [{ 'source-id': 2, 'field-id': 1000, name: 'ts_day', transform: 'day' }] },
                   'write-order': { 'order-id': 1, fields: [{ 'source-id': 1, transform: 'identity', direction: 'asc', 'null-order': 'nulls-first' }] },
                   properties: { 'format-version': '2' } };
  check('create table request', 'CreateTableRequest', create);
  const created = await step('create table', 'POST', '/v1/namespaces/shop/tables', { body: create }, 200, 'LoadTableResult');
  await step('create table twice', 'POST', '/v1/namespaces/shop/tables', { body: create }, 409, 'AlreadyExistsException');
  await step('create in missing ns', 'POST', '/v1/namespaces/nope/tables', { body: create }, 404, 'NoSuchNamespaceException');
  await step('create outside warehouse', 'POST', '/v1/namespaces/shop/tables', { body: { ...create, name: 'evil', location: '/etc/evil' } }, 403, 'ForbiddenException');
  await step('create with ..', 'POST', '/v1/namespaces/shop/tables', { body: { ...create, name: 'evil', location: `${created.json?.metadata?.location}/../../x` } }, 400, 'BadRequestException');
  await step('stage create', 'POST', '/v1/namespaces/shop/tables', { body: { ...create, name: 'staged', 'stage-create': true } }, 200, 'LoadTableResult');
  await step('list tables', 'GET', '/v1/namespaces/shop/tables', {}, 200, 'ListTablesResponse');
  await step('list tables paged', 'GET', '/v1/namespaces/shop/tables?pageToken=&pageSize=10', {}, 200, 'ListTablesResponse');
  const loaded = await step('load table', 'GET', '/v1/namespaces/shop/tables/orders', {}, 200, 'LoadTableResult');
  await step('load refs', 'GET', '/v1/namespaces/shop/tables/orders?snapshots=refs', {}, 200, 'LoadTableResult');
  const etag = loaded.headers.get('etag');
  if (!etag) failures.push('load table: no ETag');
  await step('load not modified', 'GET', '/v1/namespaces/shop/tables/orders', { headers: { 'If-None-Match': etag ?? '' } }, 304, null);
  await step('head table', 'HEAD', '/v1/namespaces/shop/tables/orders', {}, 204, null);
  await step('load missing table', 'GET', '/v1/namespaces/shop/tables/nope', {}, 404, 'NoSuchTableException');

  const uuid = loaded.json?.metadata?.['table-uuid'];
  const snapshot = { 'snapshot-id': 1001, 'sequence-number': 1, 'timestamp-ms': Date.now(),
                     'manifest-list': `${loaded.json?.metadata?.location}/metadata/snap-1001.avro`,
                     summary: { operation: 'append', 'added-records': '0' }, 'schema-id': 0 };
  const commit = { requirements: [{ type: 'assert-table-uuid', uuid }, { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null }],
                   updates: [{ action: 'add-snapshot', snapshot },
                             { action: 'set-snapshot-ref', 'ref-name': 'main', 'snapshot-id': 1001, type: 'branch' },
                             { action: 'set-properties', updates: { 'commit.by': 'contract' } },
                             { action: 'remove-properties', removals: ['nothing'] },
                             { action: 'add-schema', schema: { ...schema, 'schema-id': 1, fields: [...schema.fields, { id: 5, name: 'note', required: false, type: 'string' }] } },
                             { action: 'set-current-schema', 'schema-id': -1 }] };
  checkChanges('commit request', commit);
  await step('commit', 'POST', '/v1/namespaces/shop/tables/orders', { body: commit }, 200, 'CommitTableResponse');
  await step('commit stale', 'POST', '/v1/namespaces/shop/tables/orders', { body: commit }, 409, 'CommitFailedException');
  await step('commit unknown action', 'POST', '/v1/namespaces/shop/tables/orders', { body: { requirements: [], updates: [{ action: 'frobnicate' }] } }, 400, 'BadRequestException');
  await step('commit unknown requirement', 'POST', '/v1/namespaces/shop/tables/orders', { body: { requirements: [{ type: 'assert-magic' }], updates: [] } }, 400, 'BadRequestException');
  await step('commit wrong types', 'POST', '/v1/namespaces/shop/tables/orders', { body: { requirements: [], updates: [{ action: 'set-default-spec', 'spec-id': 'zero' }] } }, 400, 'BadRequestException');
  await step('commit missing table', 'POST', '/v1/namespaces/shop/tables/ghost', { body: { requirements: [], updates: [] } }, 404, 'NoSuchTableException');
  await step('commit moves out', 'POST', '/v1/namespaces/shop/tables/orders', { body: { requirements: [], updates: [{ action: 'set-location', location: 's3://elsewhere/t' }] } }, 403, 'ForbiddenException');
  await step('metrics', 'POST', '/v1/namespaces/shop/tables/orders/metrics', { body: { 'report-type': 'commit-report', 'table-name': 'shop.orders', 'snapshot-id': 1001, 'sequence-number': 1, operation: 'append', metrics: {} } }, 204, null);

  // Transactions.
  await step('create t2', 'POST', '/v1/namespaces/shop/tables', { body: { ...create, name: 't2' } }, 200, 'LoadTableResult');
  const tx = { 'table-changes': [
    { identifier: { namespace: ['shop'], name: 'orders' }, requirements: [{ type: 'assert-current-schema-id', 'current-schema-id': 1 }], updates: [{ action: 'set-properties', updates: { tx: '1' } }] },
    { identifier: { namespace: ['shop'], name: 't2' }, requirements: [{ type: 'assert-default-spec-id', 'default-spec-id': 0 }], updates: [{ action: 'set-properties', updates: { tx: '1' } }] }] };
  check('transaction request', 'CommitTransactionRequest', tx);
  for (const c of tx['table-changes']) checkChanges('transaction change', c);
  await step('transaction', 'POST', '/v1/transactions/commit', { body: tx }, 204, null);
  const staleTx = structuredClone(tx);
  staleTx['table-changes'][1].requirements = [{ type: 'assert-default-spec-id', 'default-spec-id': 9 }];
  await step('transaction conflict', 'POST', '/v1/transactions/commit', { body: staleTx }, 409, 'CommitFailedException');
  await step('transaction without identifier', 'POST', '/v1/transactions/commit', { body: { 'table-changes': [{ requirements: [], updates: [] }] } }, 400, 'BadRequestException');

  // Rename, register, drop.
  const rename = { source: { namespace: ['shop'], name: 't2' }, destination: { namespace: ['shop', 'eu'], name: 't3' } };
  check('rename request', 'RenameTableRequest', rename);
  await step('rename', 'POST', '/v1/tables/rename', { body: rename }, 204, null);
  await step('rename missing', 'POST', '/v1/tables/rename', { body: rename }, 404, 'NoSuchTableException');
  const location = loaded.json?.['metadata-location'];
  const reg = { name: 'registered', 'metadata-location': location };
  check('register request', 'RegisterTableRequest', reg);
  await step('register', 'POST', '/v1/namespaces/shop/register', { body: reg }, 200, 'LoadTableResult');
  await step('register taken', 'POST', '/v1/namespaces/shop/register', { body: reg }, 409, 'AlreadyExistsException');
  const overwrite = { ...reg, overwrite: true };
  check('register overwrite request', 'RegisterTableRequest', overwrite);
  await step('register overwrite', 'POST', '/v1/namespaces/shop/register', { body: overwrite }, 200, 'LoadTableResult');
  await step('register outside', 'POST', '/v1/namespaces/shop/register', { body: { name: 'x', 'metadata-location': '/tmp/x.metadata.json' } }, 403, 'ForbiddenException');
  await step('drop ns not empty', 'DELETE', '/v1/namespaces/shop', {}, 409, 'NamespaceNotEmptyException');
  await step('drop registered', 'DELETE', '/v1/namespaces/shop/tables/registered', {}, 204, null);
  await step('drop purge', 'DELETE', '/v1/namespaces/shop%1Feu/tables/t3?purgeRequested=true', {}, 204, null);
  await step('drop missing', 'DELETE', '/v1/namespaces/shop/tables/registered', {}, 404, 'NoSuchTableException');

  // Scopes, idempotency, limits.
  token = reader.json?.access_token ?? '';
  await step('reader loads', 'GET', '/v1/namespaces/shop/tables/orders', {}, 200, 'LoadTableResult');
  await step('reader may not write', 'POST', '/v1/namespaces', { body: { namespace: ['x'] } }, 403, 'ForbiddenException');
  token = admin.json?.access_token ?? '';
  const key = { 'Idempotency-Key': '017F22E2-79B0-7CC3-98C4-DC0C0C07398F' };
  await step('idempotent create', 'POST', '/v1/namespaces', { body: { namespace: ['once'] }, headers: key }, 200, 'CreateNamespaceResponse');
  await step('idempotent replay', 'POST', '/v1/namespaces', { body: { namespace: ['once'] }, headers: key }, 200, 'CreateNamespaceResponse');
  await step('oversized body', 'POST', '/v1/namespaces', { body: { namespace: ['big'], properties: { p: 'x'.repeat(100000) } } }, 413, null);

  // Views.
  const viewVersion = (id, sql, dialect) => ({ 'version-id': id, 'schema-id': 0, 'timestamp-ms': Date.now(),
    summary: { 'engine-name': 'contract' }, representations: [{ type: 'sql', sql, dialect }], 'default-namespace': ['shop'] });
  const createView = { name: 'recent', schema, 'view-version': viewVersion(1, 'SELECT * FROM orders', 'spark'), properties: { comment: 'recent orders' } };
  check('create view request', 'CreateViewRequest', createView);
  const view = await step('create view', 'POST', '/v1/namespaces/shop/views', { body: createView }, 200, 'LoadViewResult');
  await step('create view twice', 'POST', '/v1/namespaces/shop/views', { body: createView }, 409, 'AlreadyExistsException');
  await step('create view over table', 'POST', '/v1/namespaces/shop/views', { body: { ...createView, name: 'orders' } }, 409, 'AlreadyExistsException');
  await step('create view in missing ns', 'POST', '/v1/namespaces/nope/views', { body: createView }, 404, 'NoSuchNamespaceException');
  await step('create view outside', 'POST', '/v1/namespaces/shop/views', { body: { ...createView, name: 'evil', location: '/etc/evil' } }, 403, 'ForbiddenException');
  await step('create view malformed', 'POST', '/v1/namespaces/shop/views', { body: '{"name": "v"' }, 400, 'BadRequestException');
  await step('create view without version', 'POST', '/v1/namespaces/shop/views', { body: { name: 'v', schema, properties: {} } }, 400, 'BadRequestException');
  await step('create view 2', 'POST', '/v1/namespaces/shop/views', { body: { ...createView, name: 'daily' } }, 200, 'LoadViewResult');
  await step('list views', 'GET', '/v1/namespaces/shop/views', {}, 200, 'ListTablesResponse');
  const viewPage = await step('list views paged', 'GET', '/v1/namespaces/shop/views?pageToken=&pageSize=1', {}, 200, 'ListTablesResponse');
  if (viewPage.json && typeof viewPage.json['next-page-token'] !== 'string') failures.push('list views paged: no next-page-token');
  await step('list views missing ns', 'GET', '/v1/namespaces/nope/views', {}, 404, 'NoSuchNamespaceException');
  await step('load view', 'GET', '/v1/namespaces/shop/views/recent', {}, 200, 'LoadViewResult');
  await step('load view referenced-by', 'GET', '/v1/namespaces/shop/views/recent?referenced-by=shop%1Fdaily', {}, 200, 'LoadViewResult');
  await step('head view', 'HEAD', '/v1/namespaces/shop/views/recent', {}, 204, null);
  await step('head missing view', 'HEAD', '/v1/namespaces/shop/views/nope', {}, 404, null);
  await step('load missing view', 'GET', '/v1/namespaces/shop/views/nope', {}, 404, 'NoSuchViewException');
  const viewUuid = view.json?.metadata?.['view-uuid'];
  const replace = { identifier: { namespace: ['shop'], name: 'recent' },
                    requirements: [{ type: 'assert-view-uuid', uuid: viewUuid }],
                    updates: [{ action: 'add-view-version', 'view-version': viewVersion(2, 'SELECT id FROM orders', 'trino') },
                              { action: 'set-current-view-version', 'view-version-id': -1 },
                              { action: 'set-properties', updates: { owner: 'contract' } },
                              { action: 'remove-properties', removals: ['comment'] }] };
  check('replace view request', 'CommitViewRequest', replace);
  for (const [i, u] of replace.updates.entries()) check(`replace view updates[${i}]`, updateMapping[u.action].split('/').pop(), u);
  const viewRequirementMapping = spec.components.schemas.ViewRequirement.discriminator.mapping;
  for (const [i, r] of replace.requirements.entries()) check(`replace view requirements[${i}]`, viewRequirementMapping[r.type].split('/').pop(), r);
  await step('replace view', 'POST', '/v1/namespaces/shop/views/recent', { body: replace }, 200, 'LoadViewResult');
  await step('replace view stale', 'POST', '/v1/namespaces/shop/views/recent', { body: { ...replace, requirements: [{ type: 'assert-view-uuid', uuid: 'not-it' }] } }, 409, 'CommitFailedException');
  await step('replace view table action', 'POST', '/v1/namespaces/shop/views/recent', { body: { updates: [{ action: 'add-snapshot', snapshot }] } }, 400, 'BadRequestException');
  await step('replace view unknown requirement', 'POST', '/v1/namespaces/shop/views/recent', { body: { requirements: [{ type: 'assert-magic' }], updates: [] } }, 400, 'BadRequestException');
  await step('replace view bad version', 'POST', '/v1/namespaces/shop/views/recent', { body: { updates: [{ action: 'set-current-view-version', 'view-version-id': 42 }] } }, 400, 'BadRequestException');
  await step('replace view moves out', 'POST', '/v1/namespaces/shop/views/recent', { body: { updates: [{ action: 'set-location', location: 's3://elsewhere/v' }] } }, 403, 'ForbiddenException');
  await step('replace missing view', 'POST', '/v1/namespaces/shop/views/ghost', { body: { updates: [] } }, 404, 'NoSuchViewException');
  const renameView = { source: { namespace: ['shop'], name: 'daily' }, destination: { namespace: ['shop'], name: 'daily2' } };
  check('rename view request', 'RenameTableRequest', renameView);
  await step('rename view', 'POST', '/v1/views/rename', { body: renameView }, 204, null);
  await step('rename view missing', 'POST', '/v1/views/rename', { body: renameView }, 404, 'NoSuchViewException');
  await step('rename view onto table', 'POST', '/v1/views/rename', { body: { source: { namespace: ['shop'], name: 'daily2' }, destination: { namespace: ['shop'], name: 'orders' } } }, 409, 'AlreadyExistsException');
  await step('rename view to missing ns', 'POST', '/v1/views/rename', { body: { source: { namespace: ['shop'], name: 'daily2' }, destination: { namespace: ['nope'], name: 'v' } } }, 404, 'NoSuchNamespaceException');
  token = reader.json?.access_token ?? '';
  await step('reader loads view', 'GET', '/v1/namespaces/shop/views/recent', {}, 200, 'LoadViewResult');
  await step('reader may not drop view', 'DELETE', '/v1/namespaces/shop/views/recent', {}, 403, 'ForbiddenException');
  token = admin.json?.access_token ?? '';
  await step('drop view', 'DELETE', '/v1/namespaces/shop/views/daily2', {}, 204, null);
  await step('drop missing view', 'DELETE', '/v1/namespaces/shop/views/daily2', {}, 404, 'NoSuchViewException');
  await step('still up', 'GET', '/v1/namespaces/shop/tables/orders', {}, 200, 'LoadTableResult');
  await step('drop nested ns', 'DELETE', '/v1/namespaces/shop%1Feu', {}, 204, null);
} catch (e) {
  failures.push(`script: ${e.stack}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}

if (!/SIGTERM: finishing the requests in flight/.test(stderr)) failures.push('no graceful-shutdown line on stderr');
if (/Bearer|admin-secret|reader-secret|floe1\./.test(stderr)) failures.push('a token or secret reached the log');
if (!/rest: GET \/v1\/config 200 \d+ms \d+B/.test(stderr)) failures.push('no access-log line for GET /v1/config');
if (failures.length) {
  console.log(failures.join('\n'));
  console.log(`${failures.length} failure(s)`);
  process.exit(1);
}
console.log(`rest contract: ok (${schemaCount} schemas compiled, every answer valid)`);
