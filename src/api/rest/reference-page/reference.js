// @ts-check
// The API reference page (/api/v1/docs): fetches the OpenAPI document from this origin and renders it with
// DOM calls. Every text from the document is set as text (textContent, text nodes), never parsed as HTML. No dependencies.
// The sidebar and each operation's request samples (curl, Node) are derived from the same document, so they follow
// the route table they were generated from.
'use strict';

(function () {
  /** @typedef {Record<string, any>} Json */

  const root = /** @type {HTMLElement} */ (document.getElementById('reference'));
  const status = /** @type {HTMLElement} */ (document.getElementById('reference-status'));
  const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

  /**
   * @param {string} tag
   * @param {Record<string, string>} [attributes]
   * @param {(Node | string | null | undefined)[]} [children]
   */
  function el(tag, attributes = {}, children = []) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  /** `code` and **bold** inside one line of text. @param {string} text */
  function inline(text) {
    const fragment = document.createDocumentFragment();
    for (const part of text.split(/(`[^`]+`|\*\*[^*]+\*\*)/)) {
      if (part.startsWith('`') && part.endsWith('`') && part.length > 1) fragment.append(el('code', {}, [part.slice(1, -1)]));
      else if (part.startsWith('**') && part.endsWith('**') && part.length > 3) fragment.append(el('strong', {}, [part.slice(2, -2)]));
      else if (part) fragment.append(document.createTextNode(part));
    }
    return fragment;
  }

  /** Paragraphs and "- " lists: the part of CommonMark the document uses. @param {string | undefined} text */
  function markdown(text) {
    const fragment = document.createDocumentFragment();
    for (const block of (text ?? '').split(/\n\s*\n/)) {
      const lines = block.split('\n').filter((line) => line.trim() !== '');
      if (lines.length === 0) continue;
      if (lines.every((line) => line.startsWith('- '))) fragment.append(el('ul', {}, lines.map((line) => el('li', {}, [inline(line.slice(2))]))));
      else fragment.append(el('p', {}, [inline(lines.join(' '))]));
    }
    return fragment;
  }

  /** @param {Json} doc @param {string} pointer */
  function resolve(doc, pointer) {
    if (!pointer.startsWith('#/')) return {};
    return pointer
      .slice(2)
      .split('/')
      .reduce((node, key) => (node && typeof node === 'object' ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), /** @type {any} */ (doc)) ?? {};
  }

  /** @param {Json} doc @param {Json} item */
  const deref = (doc, item) => (item && item.$ref ? resolve(doc, item.$ref) : item);

  const schemaName = (/** @type {string} */ pointer) => pointer.split('/').pop() ?? pointer;

  /** A schema's type in a few words, with links to named schemas. @param {Json} schema @returns {Node} */
  function typeNode(schema) {
    const fragment = document.createDocumentFragment();
    if (!schema || typeof schema !== 'object') return fragment;
    if (schema.$ref) {
      const name = schemaName(schema.$ref);
      fragment.append(el('a', { href: `#schema-${name}` }, [name]));
    } else if ('const' in schema) {
      fragment.append(el('code', {}, [JSON.stringify(schema.const)]));
    } else if (Array.isArray(schema.enum)) {
      schema.enum.forEach((value, i) => fragment.append(i ? ' | ' : '', el('code', {}, [JSON.stringify(value)])));
    } else if (Array.isArray(schema.anyOf)) {
      schema.anyOf.forEach((choice, i) => fragment.append(i ? ' | ' : '', typeNode(choice)));
    } else if (Array.isArray(schema.allOf)) {
      schema.allOf.forEach((part, i) => fragment.append(i ? ' & ' : '', typeNode(part)));
    } else if (schema.type) {
      const types = /** @type {string[]} */ ([]).concat(schema.type);
      types.forEach((type, i) => {
        fragment.append(i ? ' | ' : '');
        if (type === 'array' && schema.items) fragment.append('array of ', typeNode(schema.items));
        else fragment.append(type);
      });
    } else if (schema.pattern) {
      fragment.append('string');
    } else {
      fragment.append('any');
    }
    return fragment;
  }

  /** Limits and formats, as short phrases. @param {Json} schema @returns {string[]} */
  function rules(schema) {
    const out = [];
    if (schema.format) out.push(`format ${schema.format}`);
    if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
    if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
    if (schema.minLength !== undefined) out.push(`min length ${schema.minLength}`);
    if (schema.maxLength !== undefined) out.push(`max length ${schema.maxLength}`);
    if (schema.pattern) out.push(`pattern ${schema.pattern}`);
    if (schema.maxProperties !== undefined) out.push(`at most ${schema.maxProperties} keys`);
    if (schema.propertyNames) out.push(`keys: ${rules(schema.propertyNames).join(', ')}`);
    if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
    return out;
  }

  /** @param {string[]} headings @param {Node[][]} rows */
  function table(headings, rows) {
    return el('table', {}, [
      el('thead', {}, [el('tr', {}, headings.map((h) => el('th', { scope: 'col' }, [h])))]),
      el('tbody', {}, rows.map((cells) => el('tr', {}, cells.map((cell) => el('td', {}, [cell]))))),
    ]);
  }

  /** An object schema's properties as a table; anything else as its type. @param {Json} doc @param {Json} schema */
  function schemaBlock(doc, schema) {
    const shown = deref(doc, schema);
    const fragment = document.createDocumentFragment();
    if (schema.$ref) fragment.append(el('p', {}, ['Schema: ', typeNode(schema)]));
    if (shown.description) fragment.append(markdown(shown.description));
    if (shown.properties) {
      const required = new Set(shown.required ?? []);
      fragment.append(
        table(
          ['Field', 'Type', 'Rules', 'Description'],
          Object.entries(shown.properties).map(([name, property]) => [
            el('span', {}, [el('code', {}, [name]), required.has(name) ? el('span', { class: 'required' }, [' required']) : null]),
            typeNode(property),
            document.createTextNode(rules(property).join('; ')),
            markdown(property.description),
          ]),
        ),
      );
      if (shown.additionalProperties === false) fragment.append(el('p', { class: 'note' }, ['No other fields.']));
    } else if (!schema.$ref) {
      fragment.append(el('p', {}, ['Type: ', typeNode(shown), rules(shown).length ? ` (${rules(shown).join('; ')})` : '']));
    }
    return fragment;
  }

  /** @param {Json} doc @param {Json[]} parameters */
  function parametersBlock(doc, parameters) {
    const list = parameters.map((p) => deref(doc, p));
    return el('section', {}, [
      el('h4', {}, ['Parameters']),
      table(
        ['Name', 'In', 'Type', 'Rules', 'Description'],
        list.map((p) => [
          el('span', {}, [el('code', {}, [p.name]), p.required ? el('span', { class: 'required' }, [' required']) : null]),
          document.createTextNode(p.in),
          typeNode(p.schema),
          document.createTextNode(rules(p.schema ?? {}).join('; ')),
          markdown(p.description),
        ]),
      ),
    ]);
  }

  /** @param {Json} examples */
  function examplesBlock(examples) {
    const entries = Object.entries(examples ?? {});
    if (entries.length === 0) return null;
    const errors = entries.every(([, example]) => example.value && example.value.success === false && typeof example.value.error === 'string');
    if (errors) {
      return el('ul', { class: 'messages' }, entries.map(([, example]) => el('li', {}, [el('code', {}, [example.value.error]), example.summary ? ' — ' : '', inline(example.summary ?? '')])));
    }
    return el(
      'div',
      {},
      entries.map(([name, example]) => el('figure', {}, [el('figcaption', {}, [example.summary ?? name]), el('pre', {}, [JSON.stringify(example.value, null, 2)])])),
    );
  }

  /** @param {Json} doc @param {string} code @param {Json} response */
  function responseBlock(doc, code, response) {
    const shown = deref(doc, response);
    const media = shown.content?.['application/json'];
    // A stream's answer is text: its example is shown as it is sent.
    const stream = shown.content?.['text/event-stream'];
    const headers = Object.entries(shown.headers ?? {}).map(([name, header]) => [name, deref(doc, header)]);
    return el('section', { class: 'response' }, [
      el('h5', {}, [code ? el('span', { class: `status status-${code[0]}` }, [code, ' ']) : null, inline(shown.description ?? '')]),
      headers.length
        ? table(
            ['Header', 'Description'],
            headers.map(([name, header]) => [
              el('span', {}, [el('code', {}, [name]), header.required ? '' : el('span', { class: 'note' }, [' optional'])]),
              markdown(header.description),
            ]),
          )
        : null,
      media && media.schema && !media.schema.allOf ? schemaBlock(doc, media.schema) : null,
      media ? examplesBlock(media.examples) : null,
      typeof stream?.example === 'string' ? el('figure', {}, [el('figcaption', {}, ['Example (text/event-stream)']), el('pre', {}, [stream.example])]) : null,
    ]);
  }

  /** A media type's first example value (`example`, else the first of `examples`). @param {Json | undefined} media */
  function firstExample(media) {
    if (!media) return undefined;
    if (media.example !== undefined) return media.example;
    const [first] = Object.values(media.examples ?? {});
    return first ? first.value : undefined;
  }

  /** What a sample sends for a parameter: its example, else its schema's default; nothing for the others. @param {Json} parameter */
  function parameterValue(parameter) {
    const value = firstExample(parameter);
    return value !== undefined ? value : parameter.schema?.default;
  }

  /**
   * The request an operation's samples send, from the document alone: the first server, path parameters from their
   * example or the answer's own example (a payment's `id`), query parameters and headers that have an example or a
   * default, the API key when the operation is not public, and the body's first example.
   * @param {Json} doc @param {string} path @param {string} method @param {Json} operation
   */
  function sampleRequest(doc, path, method, operation) {
    const server = String(doc.servers?.[0]?.url ?? location.origin).replace(/\/$/, '');
    const parameters = /** @type {Json[]} */ (operation.parameters ?? []).map((p) => deref(doc, p));
    const answer = deref(doc, operation.responses?.['200'] ?? {});
    const answerData = firstExample(answer.content?.['application/json'])?.data ?? {};
    const resolvedPath = path.replace(/\{([^}]+)\}/g, (whole, name) => {
      const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
      const value = parameter && parameterValue(parameter) !== undefined ? parameterValue(parameter) : answerData[name];
      return value === undefined ? whole : encodeURIComponent(String(value));
    });
    const query = new URLSearchParams();
    for (const p of parameters) if (p.in === 'query' && parameterValue(p) !== undefined) query.append(p.name, String(parameterValue(p)));
    const search = query.toString();
    const stream = answer.content?.['text/event-stream'] !== undefined;
    const bodyMedia = operation.requestBody?.content?.['application/json'];
    /** @type {[string, string][]} */
    const headers = [];
    if (stream) headers.push(['Accept', 'text/event-stream']);
    if (bodyMedia) headers.push(['Content-Type', 'application/json']);
    for (const p of parameters) if (p.in === 'header' && parameterValue(p) !== undefined) headers.push([p.name, String(parameterValue(p))]);
    return {
      method: method.toUpperCase(),
      url: `${server}${resolvedPath}${search ? `?${search}` : ''}`,
      bearer: (operation.security ?? doc.security ?? []).length > 0,
      headers,
      body: bodyMedia ? firstExample(bodyMedia) : undefined,
      stream,
    };
  }

  /** @typedef {ReturnType<typeof sampleRequest>} SampleRequest */

  /** One shell word, whatever it holds. @param {string} text */
  const shellWord = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

  /** @param {SampleRequest} request */
  function curlSample(request) {
    const words = [`curl ${request.stream ? '-N ' : ''}${shellWord(request.url)}`];
    // curl sends GET, and POST once given a body; any other pairing is said.
    if (request.method !== (request.body === undefined ? 'GET' : 'POST')) words.push(`-X ${request.method}`);
    if (request.bearer) words.push('-H "Authorization: Bearer $API_KEY"');
    for (const [name, value] of request.headers) words.push(`-H ${shellWord(`${name}: ${value}`)}`);
    if (request.body !== undefined) words.push(`-d ${shellWord(JSON.stringify(request.body, null, 2).replace(/\n/g, '\n  '))}`);
    return words.join(' \\\n  ');
  }

  /** A JavaScript string literal in single quotes. @param {string} text */
  const jsString = (text) => `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
  /** @param {string} name */
  const jsKey = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : jsString(name));

  /** A JSON value as a JavaScript literal, nested lines indented from `indent`. @param {unknown} value @param {string} indent @returns {string} */
  function jsLiteral(value, indent) {
    const inner = `${indent}  `;
    if (Array.isArray(value)) return value.length ? `[\n${value.map((item) => `${inner}${jsLiteral(item, inner)},`).join('\n')}\n${indent}]` : '[]';
    if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      return entries.length ? `{\n${entries.map(([key, item]) => `${inner}${jsKey(key)}: ${jsLiteral(item, inner)},`).join('\n')}\n${indent}}` : '{}';
    }
    return typeof value === 'string' ? jsString(value) : JSON.stringify(value);
  }

  /** A Node 20 module: plain fetch, the answer printed. @param {SampleRequest} request @param {Json} operation */
  function nodeSample(request, operation) {
    const file = `${String(operation.operationId).replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}.mjs`;
    const lines = [`// Node 20 or later, nothing to install: save as ${file}, then run ${request.bearer ? 'API_KEY=svc_live_… ' : ''}node ${file}`];
    /** @type {string[]} */
    const options = [];
    if (request.method !== 'GET') options.push(`method: ${jsString(request.method)},`);
    const headers = request.headers.map(([name, value]) => `${jsKey(name)}: ${jsString(value)},`);
    if (request.bearer) headers.unshift('Authorization: `Bearer ${process.env.API_KEY}`,');
    if (headers.length) options.push('headers: {', ...headers.map((line) => `  ${line}`), '},');
    if (request.body !== undefined) options.push(`body: JSON.stringify(${jsLiteral(request.body, '  ')}),`);
    lines.push(options.length ? `const response = await fetch(${jsString(request.url)}, {\n${options.map((line) => `  ${line}`).join('\n')}\n});` : `const response = await fetch(${jsString(request.url)});`);
    if (request.stream) {
      lines.push(
        '// Each message is printed as it comes; the stream stays open (Ctrl-C ends it).',
        'if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);',
        'const decoder = new TextDecoder();',
        'for await (const chunk of response.body) process.stdout.write(decoder.decode(chunk, { stream: true }));',
      );
    } else {
      lines.push('console.log(response.status, JSON.stringify(await response.json(), null, 2));');
    }
    return lines.join('\n');
  }

  /** A sample: a figure named by its caption. @param {string} caption @param {string} code */
  const sample = (caption, code) => el('figure', { class: 'sample' }, [el('figcaption', {}, [caption]), el('pre', {}, [el('code', {}, [code])])]);

  /** @param {Json} doc @param {string} path @param {string} method @param {Json} operation */
  function samplesBlock(doc, path, method, operation) {
    const request = sampleRequest(doc, path, method, operation);
    return el('section', { class: 'samples' }, [
      el('h4', {}, ['Request samples']),
      request.bearer ? el('p', { class: 'note' }, ['Your shop\'s key in ', el('code', {}, ['API_KEY']), ': ', el('code', {}, ['export API_KEY=svc_live_…'])]) : null,
      sample('curl', curlSample(request)),
      sample('Node 20 (fetch)', nodeSample(request, operation)),
    ]);
  }

  /** @param {Json} doc @param {string} path @param {string} method @param {Json} operation */
  function operationBlock(doc, path, method, operation) {
    const security = operation.security ?? doc.security ?? [];
    const body = operation.requestBody;
    const bodyMedia = body?.content?.['application/json'];
    return el('section', { class: 'operation', id: `op-${operation.operationId}` }, [
      el('h3', {}, [el('span', { class: `method method-${method}` }, [method.toUpperCase()]), ' ', el('code', {}, [path]), ' — ', operation.summary]),
      markdown(operation.description),
      el('p', { class: 'note' }, [security.length ? 'Requires the API key (Authorization: Bearer).' : 'Public: no API key.']),
      samplesBlock(doc, path, method, operation),
      operation.parameters?.length ? parametersBlock(doc, operation.parameters) : null,
      bodyMedia
        ? el('section', {}, [el('h4', {}, ['Request body']), markdown(body.description), schemaBlock(doc, bodyMedia.schema), examplesBlock(bodyMedia.examples)])
        : null,
      el('section', {}, [el('h4', {}, ['Responses']), ...Object.entries(operation.responses ?? {}).map(([code, response]) => responseBlock(doc, code, response))]),
    ]);
  }

  /** @typedef {{ path: string, method: string, operation: Json }} Listed */

  /** The operations grouped by their first tag, in the order of the document's tags (untagged ones last). @param {Json} doc @returns {{ name: string, items: Listed[] }[]} */
  function groupedOperations(doc) {
    /** @type {Listed[]} */
    const operations = [];
    // In the document's order, which is the route table's (create before list on the same path).
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of Object.keys(item)) if (METHODS.includes(method)) operations.push({ path, method, operation: item[method] });
    }
    const names = /** @type {string[]} */ ((doc.tags ?? []).map((/** @type {Json} */ tag) => tag.name));
    for (const { operation } of operations) if (!names.includes(operation.tags?.[0] ?? 'Other')) names.push(operation.tags?.[0] ?? 'Other');
    return names
      .map((name) => ({ name, items: operations.filter(({ operation }) => (operation.tags?.[0] ?? 'Other') === name) }))
      .filter((group) => group.items.length > 0);
  }

  /**
   * The sidebar: the page's parts and every operation by group. Beside the text on wide screens, where it stays in
   * view; on narrow ones a menu at the top that a button opens (reference.css), closed again once a link is followed.
   * @param {{ name: string, items: Listed[] }[]} groups
   */
  function sidebar(groups) {
    const link = (/** @type {string} */ id, /** @type {(Node | string)[]} */ children) => el('li', {}, [el('a', { href: `#${id}` }, children)]);
    const links = el('div', { id: 'contents-links', class: 'contents-links' }, [
      el('ul', {}, [link('overview', ['Overview']), link('authentication', ['Authentication'])]),
      ...groups.map((group, i) =>
        el('div', { class: 'group' }, [
          el('p', { class: 'group-name', id: `contents-group-${i}` }, [group.name]),
          el(
            'ul',
            { 'aria-labelledby': `contents-group-${i}` },
            group.items.map(({ method, operation }) => link(`op-${operation.operationId}`, [el('span', { class: `method method-${method}` }, [method.toUpperCase()]), ' ', operation.summary])),
          ),
        ]),
      ),
      el('ul', {}, [link('other-answers', ['Other answers']), link('schemas', ['Schemas'])]),
    ]);
    const toggle = el('button', { type: 'button', class: 'contents-toggle', 'aria-expanded': 'false', 'aria-controls': 'contents-links' }, ['Contents']);
    toggle.addEventListener('click', () => toggle.setAttribute('aria-expanded', String(toggle.getAttribute('aria-expanded') !== 'true')));
    links.addEventListener('click', (event) => {
      if (event.target instanceof Element && event.target.closest('a')) toggle.setAttribute('aria-expanded', 'false');
    });
    return el('nav', { class: 'contents', 'aria-label': 'Contents' }, [toggle, links]);
  }

  /** The sidebar link of the part in the address, marked as the current one. @param {HTMLElement} nav */
  function markCurrent(nav) {
    for (const a of nav.querySelectorAll('a')) {
      if (a.getAttribute('href') === location.hash) a.setAttribute('aria-current', 'location');
      else a.removeAttribute('aria-current');
    }
  }

  /**
   * Code blocks and tables scroll sideways inside themselves when the window is narrow: each one that does is made
   * reachable by keyboard (focusable), and only while it does, so wide screens keep no needless tab stops.
   */
  function focusableWhileScrolling() {
    const observer = new ResizeObserver((entries) => {
      for (const { target } of entries) {
        if (target.scrollWidth > target.clientWidth) target.setAttribute('tabindex', '0');
        else target.removeAttribute('tabindex');
      }
    });
    for (const scroller of root.querySelectorAll('pre, table')) observer.observe(scroller);
  }

  /** @param {Json} doc */
  function render(doc) {
    const groups = groupedOperations(doc);
    const page = document.createDocumentFragment();
    page.append(
      el('h1', {}, [doc.info?.title ?? 'API reference']),
      el('p', { class: 'note' }, [`Version ${doc.info?.version ?? '?'} · OpenAPI ${doc.openapi} · `, el('a', { href: root.dataset.openapi ?? '' }, ['the document as JSON'])]),
      el('p', { class: 'summary' }, [doc.info?.summary ?? '']),
      el('h2', {}, ['Base URL']),
      el('ul', {}, (doc.servers ?? []).map((/** @type {Json} */ server) => el('li', {}, [el('code', {}, [server.url])]))),
      el('h2', { id: 'overview' }, ['Overview']),
      markdown(doc.info?.description),
      el('h2', { id: 'authentication' }, ['Authentication']),
      ...Object.entries(doc.components?.securitySchemes ?? {}).map(([name, scheme]) =>
        el('p', {}, [el('code', {}, [name]), `: HTTP ${scheme.scheme} (${scheme.bearerFormat ?? ''}). `, inline(scheme.description ?? '')]),
      ),
      el('h2', { id: 'endpoints' }, ['Endpoints']),
      ...groups.flatMap((group) => group.items.map(({ path, method, operation }) => operationBlock(doc, path, method, operation))),
      el('h2', { id: 'other-answers' }, ['Other answers']),
      ...Object.entries(doc.components?.responses ?? {}).map(([name, response]) =>
        el('section', { id: `response-${name}` }, [el('h3', {}, [name]), responseBlock(doc, '', response)]),
      ),
      el('h2', { id: 'schemas' }, ['Schemas']),
      ...Object.entries(doc.components?.schemas ?? {}).map(([name, schema]) =>
        el('section', { id: `schema-${name}`, class: 'schema' }, [el('h3', {}, [name]), schemaBlock(doc, schema)]),
      ),
    );
    root.replaceChildren(page);
    const nav = sidebar(groups);
    root.before(nav);
    markCurrent(nav);
    focusableWhileScrolling();
    window.addEventListener('hashchange', () => markCurrent(nav));
    if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  }

  const source = root.dataset.openapi ?? '/api/v1/openapi.json';
  fetch(source, { headers: { Accept: 'application/json' } })
    .then((res) => {
      if (!res.ok) throw new Error(`the document answered ${res.status}`);
      return res.json();
    })
    .then(render)
    .catch((error) => {
      status.textContent = `Could not load the OpenAPI document (${error instanceof Error ? error.message : String(error)}). It is at ${source}.`;
    });
})();
