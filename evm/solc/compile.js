#!/usr/bin/env node
// Compiles Solidity with solc-js (the npm `solc` package pinned in package.json).
// stdin:  {"sources": {"Name.sol": "source", ...}, "optimize": true}
// stdout: {"version": "...", "errors": [...], "contracts": {"Name.sol": {"Contract": {"bytecode": "hex", "deployed": "hex"}}}}
// Exit code 0 whenever solc ran; compilation errors are in "errors" (severity "error").
"use strict";
const solc = require("solc");

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const request = JSON.parse(input);
  const sources = {};
  for (const [name, content] of Object.entries(request.sources)) {
    sources[name] = { content };
  }
  const standard = {
    language: "Solidity",
    sources,
    settings: {
      optimizer: { enabled: request.optimize !== false, runs: 200 },
      outputSelection: { "*": { "*": ["evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(standard)));
  const contracts = {};
  for (const [file, byName] of Object.entries(output.contracts || {})) {
    contracts[file] = {};
    for (const [name, c] of Object.entries(byName)) {
      contracts[file][name] = {
        bytecode: c.evm.bytecode.object,
        deployed: c.evm.deployedBytecode.object,
      };
    }
  }
  const errors = (output.errors || []).map((e) => ({
    severity: e.severity,
    message: e.formattedMessage || e.message,
  }));
  process.stdout.write(JSON.stringify({ version: solc.version(), errors, contracts }));
});
