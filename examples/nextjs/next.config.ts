import type { NextConfig } from 'next';

// Stack traces of server errors (as chatRoute logs them) point at the sources, not at minified chunks: the build
// writes server source maps, and Node applies them to the chunks it loads from here on.
process.setSourceMapsEnabled(true);

const nextConfig: NextConfig = {
  // Left to Node at run time rather than bundled when the library is installed from npm: its optional backends and
  // loaders import packages (cohere-ai, pg, unpdf, ...) that this app never loads. (Linked as a workspace here, it
  // resolves outside node_modules, so Next bundles it anyway; the source maps keep its frames readable.)
  serverExternalPackages: ['ai-advisors'],
  experimental: { serverSourceMaps: true },
};

export default nextConfig;
