// Loads a chain proof (the default) or a certificate proof and its statement (wasm/fixtures),
// verifies it with the web build of the package (wasm/npm/tms_verifier.js) and shows what was
// trusted, the verdict and the time taken.
// `window.tmsBench(runs)` returns the median verify time (ms) after load, for the browser test.
import init, { CardanoCertificateVerifier, CertificateVerifier, ChainVerifier, initCardano } from "../npm/tms_verifier.js";

const query = new URLSearchParams(location.search);
// The chain by default; the Schnorr ATMS certificate where no chain fixture is served.
const scheme = query.get("scheme") ?? ((await fetch("../fixtures/chain/statement.json", { method: "HEAD" })).ok ? "chain" : "schnorr-atms");
const tamper = query.get("tamper") === "1";
// `?pin=vk` or `?pin=params`: the page pins another fingerprint (its last digit changed), as a
// client whose pin does not match the file it was handed.
const wrongPin = query.get("pin");
const flip = (pin) => pin.slice(0, -1) + (pin.endsWith("0") ? "1" : "0");
const out = document.getElementById("verdict");

const bytes = async (path) => new Uint8Array(await (await fetch(path)).arrayBuffer());
const unhex = (s) => Uint8Array.from(s.replace(/^0x/, "").match(/../g) ?? [], (h) => parseInt(h, 16));

function show(rows) {
  const dl = document.getElementById("statement");
  for (const [name, value] of rows) {
    dl.insertAdjacentHTML("beforeend", "<dt></dt><dd></dd>");
    dl.lastElementChild.previousElementSibling.textContent = name;
    dl.lastElementChild.textContent = value;
  }
}

/** A refusal of the key or parameters (not matching their pins, not a key of that kind). */
class Refused extends Error {}

/** The verifier `make` builds; its exception becomes a refusal the page shows. */
function pinned(make) {
  try {
    return make();
  } catch (e) {
    throw new Refused(e.message);
  }
}

try {
  // "cardano/NAME": a Cardano-backend certificate, verified by the second module.
  const cardano = scheme.startsWith("cardano/");
  await (cardano ? initCardano() : init());
  const dir = `../fixtures/${scheme}/`;
  const s = await (await fetch(`${dir}statement.json`)).json();
  const paramsFile = cardano ? "../fixtures/cardano/params.bin" : "../fixtures/params.bin";
  const [vk, params, proof] = await Promise.all([bytes(`${dir}vk.bin`), bytes(paramsFile), bytes(`${dir}proof.bin`)]);
  if (tamper) proof[proof.length >> 1] ^= 1;
  if (wrongPin === "vk") s.vkFingerprint = flip(s.vkFingerprint);
  if (wrongPin === "params") s.paramsFingerprint = flip(s.paramsFingerprint);
  const message = unhex(s.message);
  const proofRow = ["proof", `${proof.length} bytes${tamper ? " (one byte changed)" : ""}`];
  const pins = [
    ["pinned verifying key (sha256)", s.vkFingerprint],
    ["pinned verifier parameters (sha256)", s.paramsFingerprint],
  ];
  let verify;
  if (s.scheme === "mithril-chain") {
    const verifier = pinned(() => new ChainVerifier(vk, s.vkFingerprint, params, s.paramsFingerprint));
    show([
      ["chain key", verifier.describe()],
      ["genesis registration", s.genesis],
      ["last registration", s.lastRegistration],
      ["epochs", String(s.epochs)],
      ["last message", new TextDecoder().decode(message)],
      proofRow,
      ...pins,
    ]);
    verify = () => verifier.verify(s.genesis, s.lastRegistration, message, s.epochs, proof);
  } else {
    const Verifier = cardano ? CardanoCertificateVerifier : CertificateVerifier;
    const verifier = pinned(() => new Verifier(s.scheme, vk, s.vkFingerprint, params, s.paramsFingerprint));
    show([
      ["circuit", verifier.describe()],
      [{ mithril: "registration digest", "bls-atms": "committee digest" }[s.scheme] ?? "committee commitment", s.commitment],
      ["message", new TextDecoder().decode(message)],
      [s.scheme === "mithril" ? "quorum k" : "threshold", String(s.threshold)],
      proofRow,
      ...pins,
    ]);
    verify = () => verifier.verify(s.commitment, message, s.threshold, proof, s.transcript);
  }
  window.tmsBench = (runs = 10) => {
    const times = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      try { verify(); } catch { /* a tampered proof is timed too */ }
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    return (times[(runs - 1) >> 1] + times[runs >> 1]) / 2;
  };
  const start = performance.now();
  let verdict, state;
  try {
    verdict = verify();
    state = "verified";
  } catch (e) {
    verdict = `refused: ${e.message}`;
    state = "refused";
  }
  const ms = performance.now() - start;
  out.textContent = `${verdict} (${ms.toFixed(1)} ms)`;
  out.dataset.state = state;
} catch (e) {
  const refused = e instanceof Refused;
  out.textContent = `${refused ? "refused" : "error"}: ${e.message ?? e}`;
  out.dataset.state = refused ? "refused" : "error";
}
