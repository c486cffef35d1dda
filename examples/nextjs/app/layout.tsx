import type { ReactNode } from 'react';
import './globals.css';

export const metadata = { title: 'ai-advisors chat', description: 'Memory, rerank RAG and metadata advisors streamed to useChat' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
