/** A minimal ordered XML tree over fast-xml-parser, for reading API Management policy files. */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated text content of this element (not of its descendants). */
  text: string;
}

/** Undefined when well formed, otherwise `line:col message`. */
export function xmlWellFormedError(xml: string): string | undefined {
  const result = XMLValidator.validate(xml);
  return result === true ? undefined : `${result.err.line}:${result.err.col} ${result.err.msg}`;
}

type OrderedNode = Record<string, unknown>;

/** The root element of a well-formed document (comments and declarations dropped). */
export function parseXml(xml: string): XmlElement {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    preserveOrder: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    commentPropName: '#comment',
    processEntities: true,
  });
  const nodes = parser.parse(xml) as OrderedNode[];
  const elements = nodes.map(toElement).filter((e): e is XmlElement => e !== undefined);
  if (elements.length !== 1) throw new Error(`expected one root element, found ${elements.length}`);
  return elements[0];
}

function toElement(node: OrderedNode): XmlElement | undefined {
  const name = Object.keys(node).find((k) => k !== ':@' && k !== '#text' && k !== '#comment' && !k.startsWith('?'));
  if (!name) return undefined;
  const rawChildren = (node[name] as OrderedNode[]) ?? [];
  const attrs = (node[':@'] as Record<string, string> | undefined) ?? {};
  const children = rawChildren.map(toElement).filter((e): e is XmlElement => e !== undefined);
  const text = rawChildren
    .filter((c) => '#text' in c)
    .map((c) => String(c['#text']))
    .join('');
  return { name, attrs: { ...attrs }, children, text };
}

/** Every element under (and including) `root`, depth first, in document order. */
export function allElements(root: XmlElement): XmlElement[] {
  const out: XmlElement[] = [root];
  for (const c of root.children) out.push(...allElements(c));
  return out;
}

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

/** All text under an element, attributes included, for "does this mention X" questions. */
export function deepText(el: XmlElement): string {
  return [Object.values(el.attrs).join(' '), el.text, ...el.children.map(deepText)].join(' ');
}
