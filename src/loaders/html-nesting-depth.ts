/** Elements without content: they never nest anything. */
const VOID_ELEMENTS = new Set(
  'area base basefont br col command embed frame hr image img input isindex keygen link meta param source track wbr'.split(' '),
);
/** Elements whose content htmlparser2 reads as text up to their end tag. */
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title', 'xmp']);
/** Inside these, `<x/>` closes itself (SVG and MathML)... */
const FOREIGN_ELEMENTS = new Set(['svg', 'math']);
/** ...and inside these, within SVG or MathML, it does not (HTML again). */
const HTML_INTEGRATION_ELEMENTS = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

const P = ['p'];
const FORM = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
/** Open elements that an opening tag closes while they are innermost, as htmlparser2 (html-to-text's parser) closes them. */
const OPEN_IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ['rt', new Set(['rt', 'rp'])],
  ['rp', new Set(['rt', 'rp'])],
  ['tbody', new Set(['thead', 'tbody'])],
  ['tfoot', new Set(['thead', 'tbody'])],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((tag) => [tag, new Set(FORM)] as const),
  ...'p h1 h2 h3 h4 h5 h6 address article aside blockquote details div dl fieldset figcaption figure footer form header hr main nav ol pre section table ul'
    .split(' ')
    .map((tag) => [tag, new Set(P)] as const),
]);

const TAG_NAME = /[a-zA-Z][^\s/>]*/y;

/**
 * Whether `html` nests elements deeper than `maxDepth`, found by one linear
 * scan that opens and closes elements as html-to-text's parser does (void
 * elements, raw text, implied end tags, end tags that close what they
 * enclose). It never counts less nesting than the parser builds, so a
 * document it passes cannot overflow the stack of the recursive conversion.
 */
export function nestsDeeperThan(html: string, maxDepth: number): boolean {
  const stack: string[] = [];
  const openCount = new Map<string, number>();
  // Whether `<x/>` closes itself here, innermost last, kept as htmlparser2 keeps it: pushed by the opening tags of
  // SVG, MathML and their HTML integration points, popped by their end tags only.
  const selfClosing: boolean[] = [false];
  const push = (name: string) => {
    stack.push(name);
    openCount.set(name, (openCount.get(name) ?? 0) + 1);
    if (FOREIGN_ELEMENTS.has(name)) selfClosing.push(true);
    else if (HTML_INTEGRATION_ELEMENTS.has(name)) selfClosing.push(false);
  };
  const pop = () => {
    const name = stack.pop()!;
    openCount.set(name, openCount.get(name)! - 1);
  };
  let position = html.indexOf('<');
  while (position !== -1 && position < html.length - 1) {
    const next = html.charCodeAt(position + 1);
    if (html.startsWith('<!--', position)) {
      position = skipPast(html, '-->', position + 4);
    } else if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
      position = skipPast(html, '>', position + 2);
    } else if (next === 0x2f /* / */) {
      TAG_NAME.lastIndex = position + 2;
      const name = TAG_NAME.exec(html)?.[0].toLowerCase();
      if (name !== undefined && (FOREIGN_ELEMENTS.has(name) || HTML_INTEGRATION_ELEMENTS.has(name))) selfClosing.pop();
      if (name !== undefined && (openCount.get(name) ?? 0) > 0) {
        while (stack.at(-1) !== name) pop();
        pop();
      } else if ((name === 'p' || name === 'br') && stack.length + 1 > maxDepth) {
        // An end tag without its element stands for an empty one there.
        return true;
      }
      position = skipPast(html, '>', position + 2);
    } else {
      TAG_NAME.lastIndex = position + 1;
      const name = TAG_NAME.exec(html)?.[0].toLowerCase();
      if (name === undefined) {
        position = html.indexOf('<', position + 1);
        continue;
      }
      const { end, selfClosing: written } = scanTag(html, position + 1 + name.length);
      const implied = OPEN_IMPLIES_CLOSE.get(name);
      while (implied && stack.length > 0 && implied.has(stack.at(-1)!)) pop();
      position = end;
      if (VOID_ELEMENTS.has(name)) {
        if (stack.length + 1 > maxDepth) return true;
      } else {
        push(name);
        if (stack.length > maxDepth) return true;
        if (written && selfClosing.at(-1)) pop();
        // htmlparser2 reads the content of <script/> as markup, not as text.
        else if (RAW_TEXT_ELEMENTS.has(name) && !written) {
          const close = indexOfIgnoringCase(html, `</${name}`, end);
          position = close === -1 ? html.length : close;
        }
      }
    }
    position = position >= html.length ? -1 : html.indexOf('<', position);
  }
  return false;
}

/**
 * Where a start tag whose attributes start at `from` ends (after its `>`; a
 * quoted value may hold `>`), and whether it is written self-closing: `/>`
 * outside an attribute value (in `<a href=/>` the slash is the value).
 */
function scanTag(html: string, from: number): { end: number; selfClosing: boolean } {
  for (let position = from; position < html.length; position++) {
    const code = html.charCodeAt(position);
    if (code === 0x3e /* > */) return { end: position + 1, selfClosing: position > from && html.charCodeAt(position - 1) === 0x2f };
    if (code !== 0x3d /* = */) continue;
    let value = position + 1;
    while (value < html.length && isSpace(html.charCodeAt(value))) value++;
    const quote = html.charCodeAt(value);
    if (quote === 0x22 /* " */ || quote === 0x27 /* ' */) {
      const close = html.indexOf(html[value], value + 1);
      if (close === -1) return { end: html.length, selfClosing: false };
      position = close;
      continue;
    }
    while (value < html.length && !isSpace(html.charCodeAt(value)) && html.charCodeAt(value) !== 0x3e) value++;
    if (value < html.length && html.charCodeAt(value) === 0x3e) return { end: value + 1, selfClosing: false };
    position = value;
  }
  return { end: html.length, selfClosing: false };
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

function skipPast(html: string, marker: string, from: number): number {
  const found = html.indexOf(marker, from);
  return found === -1 ? html.length : found + marker.length;
}

function indexOfIgnoringCase(html: string, needle: string, from: number): number {
  const pattern = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  pattern.lastIndex = from;
  return pattern.exec(html)?.index ?? -1;
}
