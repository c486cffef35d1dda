import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // The library is a workspace package whose `exports` point at its build (`npm run build` at the
  // repository root). Left to Node at run time rather than bundled: its optional backends and
  // loaders import packages (cohere-ai, pg, unpdf, ...) that this app never loads.
  serverExternalPackages: ['ai-advisors'],
};

export default nextConfig;
