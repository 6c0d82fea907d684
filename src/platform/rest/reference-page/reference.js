// @ts-check
// The API reference page (/api/v1/docs): fetches the OpenAPI document from this origin and renders it with
// DOM calls. Every text from the document is set as text (textContent, text nodes), never parsed as HTML. No dependencies.
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

  /** @param {Json} doc @param {string} path @param {string} method @param {Json} operation */
  function operationBlock(doc, path, method, operation) {
    const security = operation.security ?? doc.security ?? [];
    const body = operation.requestBody;
    const bodyMedia = body?.content?.['application/json'];
    return el('section', { class: 'operation', id: `op-${operation.operationId}` }, [
      el('h3', {}, [el('span', { class: `method method-${method}` }, [method.toUpperCase()]), ' ', el('code', {}, [path]), ' — ', operation.summary]),
      markdown(operation.description),
      el('p', { class: 'note' }, [security.length ? 'Requires the API key (Authorization: Bearer).' : 'Public: no API key.']),
      operation.parameters?.length ? parametersBlock(doc, operation.parameters) : null,
      bodyMedia
        ? el('section', {}, [el('h4', {}, ['Request body']), markdown(body.description), schemaBlock(doc, bodyMedia.schema), examplesBlock(bodyMedia.examples)])
        : null,
      el('section', {}, [el('h4', {}, ['Responses']), ...Object.entries(operation.responses ?? {}).map(([code, response]) => responseBlock(doc, code, response))]),
    ]);
  }

  /** @param {Json} doc */
  function render(doc) {
    const operations = [];
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of METHODS) if (item[method]) operations.push({ path, method, operation: item[method] });
    }
    const page = document.createDocumentFragment();
    page.append(
      el('h1', {}, [doc.info?.title ?? 'API reference']),
      el('p', { class: 'note' }, [`Version ${doc.info?.version ?? '?'} · OpenAPI ${doc.openapi} · `, el('a', { href: root.dataset.openapi ?? '' }, ['the document as JSON'])]),
      el('p', { class: 'summary' }, [doc.info?.summary ?? '']),
      el('h2', {}, ['Base URL']),
      el('ul', {}, (doc.servers ?? []).map((/** @type {Json} */ server) => el('li', {}, [el('code', {}, [server.url])]))),
      el('h2', {}, ['Overview']),
      markdown(doc.info?.description),
      el('h2', {}, ['Authentication']),
      ...Object.entries(doc.components?.securitySchemes ?? {}).map(([name, scheme]) =>
        el('p', {}, [el('code', {}, [name]), `: HTTP ${scheme.scheme} (${scheme.bearerFormat ?? ''}). `, inline(scheme.description ?? '')]),
      ),
      el('h2', {}, ['Endpoints']),
      el(
        'nav',
        { 'aria-label': 'Endpoints' },
        [el('ul', {}, operations.map(({ path, method, operation }) => el('li', {}, [el('a', { href: `#op-${operation.operationId}` }, [`${method.toUpperCase()} ${path}`]), ` — ${operation.summary}`])))],
      ),
      ...operations.map(({ path, method, operation }) => operationBlock(doc, path, method, operation)),
      el('h2', {}, ['Other answers']),
      ...Object.entries(doc.components?.responses ?? {}).map(([name, response]) =>
        el('section', { id: `response-${name}` }, [el('h3', {}, [name]), responseBlock(doc, '', response)]),
      ),
      el('h2', {}, ['Schemas']),
      ...Object.entries(doc.components?.schemas ?? {}).map(([name, schema]) =>
        el('section', { id: `schema-${name}`, class: 'schema' }, [el('h3', {}, [name]), schemaBlock(doc, schema)]),
      ),
    );
    root.replaceChildren(page);
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
