#!/usr/bin/env node
// The shim: everything lives in dist/cli.js (built from src/main.ts).
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
