'use strict';
// The smallest app the Functions programming model runs: what any cold start pays before our own code.
const { app } = require('@azure/functions');

app.http('hello', { methods: ['GET'], authLevel: 'anonymous', handler: async () => ({ body: 'hello' }) });
