/** A tiny element builder: no framework, so the whole dashboard stays a few kilobytes. */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

export function h(tag: string, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

let ids = 0;
export const uid = (prefix: string) => `${prefix}-${++ids}`;

/** A labelled field: the label names the control (people and screen readers find it by that name). */
export function field(label: string, input: Attrs & { tag?: 'input' | 'select' | 'textarea' }, hint?: string, options?: [string, string][]): { wrap: HTMLElement; control: HTMLInputElement } {
  const id = uid('f');
  const hintId = hint ? `${id}-hint` : null;
  const { tag = 'input', ...attrs } = input;
  const control = h(tag, { id, 'aria-describedby': hintId, ...attrs }, ...(options ?? []).map(([value, text]) => h('option', { value }, text))) as HTMLInputElement;
  const wrap = h('div', { class: 'field' }, h('label', { for: id }, label), hint ? h('p', { id: hintId, class: 'hint' }, hint) : null, control);
  return { wrap, control };
}

/** A message region: errors are announced (role=alert), successes politely (role=status). */
export function messageArea(): { element: HTMLElement; error(text: string): void; success(text: string): void; info(text: string): void; clear(): void } {
  const element = h('div', { class: 'message', role: 'status', 'aria-live': 'polite' });
  const alertBox = h('div', { class: 'alert', role: 'alert' });
  const wrap = h('div', {}, alertBox, element);
  return {
    element: wrap,
    error(text) {
      element.textContent = '';
      alertBox.textContent = text;
      alertBox.classList.add('shown');
    },
    success(text) {
      alertBox.textContent = '';
      alertBox.classList.remove('shown');
      element.classList.remove('info');
      element.textContent = text;
    },
    /** A next step, not an error nor a success: announced politely, in neutral colours. */
    info(text) {
      alertBox.textContent = '';
      alertBox.classList.remove('shown');
      element.classList.add('info');
      element.textContent = text;
    },
    clear() {
      alertBox.textContent = '';
      alertBox.classList.remove('shown');
      element.textContent = '';
    },
  };
}

/** A read-only secret or link with a copy button (the value is selected too, for browsers without the clipboard API). */
export function copyField(label: string, value: string, copyLabel: string): HTMLElement {
  const { wrap, control } = field(label, { type: 'text', readonly: true, value, spellcheck: 'false', class: 'mono' });
  const done = h('span', { class: 'copied', role: 'status' });
  const button = h('button', {
    type: 'button',
    class: 'secondary',
    onclick: async () => {
      control.select();
      try {
        await navigator.clipboard.writeText(value);
        done.textContent = 'Copied';
      } catch {
        done.textContent = 'Selected: press Ctrl+C to copy';
      }
    },
  }, copyLabel);
  wrap.append(h('div', { class: 'copy-row' }, button, done));
  return wrap;
}

/**
 * A table from 40rem wide up; narrower, each row a card whose cells are labelled by their column (`data-label`, drawn
 * by dashboard.css), so no column is cut off and the page never scrolls sideways.
 */
export function table(caption: string, headers: string[], rows: (Child | Child[])[][]): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-label': caption, tabindex: 0 },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, ...headers.map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell, i) => h('td', { 'data-label': headers[i] || null }, ...(Array.isArray(cell) ? cell : [cell])))))),
    ),
  );
}

/**
 * A refusal about one field, shown under it (the field is marked invalid and described by the message, so a
 * screen reader reads it with the field); null takes it away.
 */
export function fieldError(wrap: HTMLElement, control: HTMLElement, text: string | null): void {
  const id = `${control.id}-error`;
  wrap.querySelector(`#${id}`)?.remove();
  const described = (control.getAttribute('aria-describedby') ?? '').split(' ').filter((part) => part && part !== id);
  if (text === null) {
    control.removeAttribute('aria-invalid');
  } else {
    wrap.append(h('p', { id, class: 'field-error', role: 'alert' }, text));
    control.setAttribute('aria-invalid', 'true');
    described.push(id);
  }
  if (described.length) control.setAttribute('aria-describedby', described.join(' '));
  else control.removeAttribute('aria-describedby');
}

/** A file to download from the server (an export): a plain link, not an in-app one. */
export function downloadLink(text: string, href: string): HTMLElement {
  return h('a', { href, class: 'button secondary download', download: '' }, text);
}
