'use client';

import { useRef, useState, type ComponentProps } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * An answer's Markdown as models write it: GitHub-flavoured (tables, strikethrough, task lists), links that open in
 * a new tab, code blocks with a copy button that scroll sideways and can be scrolled with the keyboard.
 */
export function AnswerMarkdown({ text }: { text: string }) {
  return (
    <Markdown remarkPlugins={[remarkGfm]} components={components}>
      {text}
    </Markdown>
  );
}

const components: Components = {
  a: ({ node: _node, children, ...props }) => (
    <a {...props} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  ),
  pre: ({ node: _node, ...props }) => <CodeBlock {...props} />,
  table: ({ node: _node, ...props }) => (
    // A wide table scrolls inside the answer; focusable, so keyboard users can scroll it too.
    <div className="scroll-x" tabIndex={0} role="region" aria-label="Table">
      <table {...props} />
    </div>
  ),
};

function CodeBlock(props: ComponentProps<'pre'>) {
  const pre = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(pre.current?.textContent ?? '');
    setCopied(true);
    setTimeout(() => setCopied(false), 2_000);
  };
  return (
    <div className="code-block">
      <button type="button" className="secondary copy" data-testid="copy-code" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      {/* Focusable, so that a line wider than the answer can be scrolled with the arrow keys. */}
      <pre {...props} ref={pre} tabIndex={0} role="region" aria-label="Code" />
    </div>
  );
}
