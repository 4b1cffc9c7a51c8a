export * from './result.js';
export * from './config.js';
export * from './tools.js';
export * from './tool-schema.js';
export * from './agent.js';
export * from './https-url.js';
