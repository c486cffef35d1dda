import { jsonSchema, tool } from 'ai';

const noInput = jsonSchema<Record<string, never>>({ type: 'object', properties: {}, additionalProperties: false });

/**
 * The tools of the example, one of each kind `useChat` handles: one the server
 * runs, one the page answers (`addToolOutput`), and one the user must approve
 * first (`needsApproval`, answered with `addToolApprovalResponse`).
 */
export const chatTools = {
  currentTime: tool({
    description: "The server's current date and time.",
    inputSchema: noInput,
    execute: async () => ({ time: new Date().toISOString() }),
  }),
  getLocation: tool({
    description: "The user's city, which the browser knows and the server does not.",
    inputSchema: noInput,
  }),
  deleteNotes: tool({
    description: 'Deletes the notes in a folder.',
    inputSchema: jsonSchema<{ folder: string }>({
      type: 'object',
      properties: { folder: { type: 'string' } },
      required: ['folder'],
      additionalProperties: false,
    }),
    needsApproval: true,
    execute: async ({ folder }) => ({ folder, deleted: 3 }),
  }),
};
