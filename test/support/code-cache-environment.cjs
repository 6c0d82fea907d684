/**
 * Jest's Node environment, with V8's code cache for the modules Jest compiles. Each test file has its own module
 * registry, so Jest compiles every module afresh for each file: with ~2,000 modules behind the service, that parsing
 * was about a seventh of an integration suite's CPU. jest-runtime compiles through `vm.compileFunction`; this worker
 * keeps the code V8 made for a module's first compile and hands it back for the same source in later files (V8
 * checks the source and otherwise compiles as before). Modules still run afresh per file: only parsing is saved.
 */
const vm = require('node:vm');
const { TestEnvironment } = require('jest-environment-node');

const compileFunction = vm.compileFunction;
/** filename -> the source compiled and V8's cache of it, for this worker's lifetime. */
const compiled = new Map();

vm.compileFunction = function compileWithCodeCache(code, params, options = {}) {
  if (!options.filename || options.cachedData || options.produceCachedData) return compileFunction(code, params, options);
  const known = compiled.get(options.filename);
  const cachedData = known?.source === code ? known.data : undefined;
  const fn = compileFunction(code, params, { ...options, cachedData, produceCachedData: cachedData === undefined });
  if (fn.cachedDataProduced) compiled.set(options.filename, { source: code, data: fn.cachedData });
  return fn;
};

module.exports = TestEnvironment;
