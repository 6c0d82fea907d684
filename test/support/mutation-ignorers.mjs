// @ts-check
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

/**
 * Code the mutation runs leave alone, because no test of a money or state rule should pin it
 * (docs/decisions/0015-mutation-testing.md):
 *  - log calls (`logger.warn(...)`, `deps.logger.error(...)`): their text and fields are for operators;
 *  - an `if` that only guards log calls (`if (booked) deps.logger.info(...)`): its condition decides only what is logged;
 *  - a state's `meaning` in a lifecycle table: a note for readers of the table that nothing reads;
 *  - a row lock or a re-read in a query's options (`{ lockMode: LockMode.PESSIMISTIC_WRITE }`, `refresh: true`): they
 *    decide only what two transactions racing each other see, which tests running one step at a time cannot show.
 *    The race tests of `npm test` pin them (e.g. "a payment is refunded at most once, whatever runs concurrently");
 *    here each such mutant survived, costing every covering test of its file.
 */
const LOG_LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

/** @param {any} node */
const named = (node, name) => (node?.type === 'Identifier' && node.name === name) || (node?.type === 'StringLiteral' && node.value === name);

/** @param {import('@babel/core').NodePath} path */
function isLogCall(path) {
  if (!path.isExpressionStatement()) return false;
  let call = path.node.expression;
  if (call.type === 'AwaitExpression') call = call.argument;
  if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression') return false;
  const { object, property } = call.callee;
  if (property.type !== 'Identifier' || !LOG_LEVELS.has(property.name)) return false;
  return named(object, 'logger') || (object.type === 'MemberExpression' && named(object.property, 'logger'));
}

/**
 * `if (condition) <log call>` with no `else`, the call alone or in a block of log calls only.
 * @param {import('@babel/core').NodePath} path
 */
function isLogGuard(path) {
  if (!path.isIfStatement() || path.node.alternate) return false;
  const consequent = /** @type {import('@babel/core').NodePath} */ (path.get('consequent'));
  if (!consequent.isBlockStatement()) return isLogCall(consequent);
  const body = /** @type {import('@babel/core').NodePath[]} */ (consequent.get('body'));
  return body.length > 0 && body.every(isLogCall);
}

/**
 * `meaning: '...'`, or a state's `{ meaning: '...' }` with nothing else, in the states of a lifecycle table.
 * @param {import('@babel/core').NodePath} path
 */
function isStateMeaning(path) {
  if (path.isObjectExpression() && path.node.properties.length > 0 && path.node.properties.every((p) => p.type === 'ObjectProperty' && named(p.key, 'meaning'))) {
    return isStateMeaning(/** @type {any} */ (path.get('properties.0')));
  }
  if (!path.isObjectProperty() || !named(path.node.key, 'meaning')) return false;
  const states = path.parentPath?.parentPath?.parentPath?.parentPath;
  if (!states?.isObjectProperty() || !named(states.node.key, 'states')) return false;
  return !!states.findParent((p) => p.isCallExpression() && named(p.node.callee, 'defineLifecycle'));
}

const RACE_OPTIONS = new Set(['lockMode', 'refresh']);

/**
 * `lockMode: …` or `refresh: true` in an object, or an object of nothing else: the options of a query.
 * @param {import('@babel/core').NodePath} path
 */
function isRaceOption(path) {
  const raceProperty = (/** @type {any} */ p) => p.type === 'ObjectProperty' && RACE_OPTIONS.has(p.key?.name ?? p.key?.value);
  if (path.isObjectExpression()) return path.node.properties.length > 0 && path.node.properties.every(raceProperty);
  return raceProperty(path.node);
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'payments', {
    /** @param {import('@babel/core').NodePath} path */
    shouldIgnore(path) {
      if (isLogCall(path)) return 'a log call: its text is for operators';
      if (isLogGuard(path)) return 'an if that only guards log calls: it decides what is logged';
      if (isStateMeaning(path)) return "a lifecycle state's meaning: a note for readers, read by nothing";
      if (isRaceOption(path)) return 'a row lock or re-read: only a race shows it, and the race tests of npm test pin it';
      return undefined;
    },
  }),
];
