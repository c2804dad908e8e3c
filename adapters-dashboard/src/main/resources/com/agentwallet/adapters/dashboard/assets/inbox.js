// The co-sign inbox: loads the co-signer's key into this page's memory, and signs a payment's
// co_sign_payload with it on approving, sending only the signature.
import { base58Encode } from './base58.js';
import { loadCoSigner } from './cosign.js';

const fileInput = document.getElementById('key-file');
const pasted = document.getElementById('key-text');
const status = document.getElementById('key-status');
let coSigner = null;

const say = (text, isError = false) => {
  status.textContent = text;
  status.classList.toggle('error', isError);
};

// A keypair file as Solana tools write it (a JSON array of 64 numbers), or the base58 text itself.
const secretKeyOf = (text) => {
  const trimmed = text.trim();
  return trimmed.startsWith('[') ? base58Encode(Uint8Array.from(JSON.parse(trimmed))) : trimmed;
};

async function load(text) {
  try {
    coSigner = await loadCoSigner(secretKeyOf(text));
    say(`Key loaded: co-signer ${coSigner.publicKey}. Approve signs with it.`);
  } catch (error) {
    coSigner = null;
    say(`That is not a co-signer secret key: ${error.message}`, true);
  }
}

fileInput.addEventListener('change', async () => {
  const [file] = fileInput.files;
  if (!file) return;
  await load(await file.text());
  fileInput.value = '';
});

document.getElementById('key-load').addEventListener('click', async () => {
  await load(pasted.value);
  pasted.value = '';
});

for (const form of document.querySelectorAll('form.approve')) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!coSigner) {
      say('Load the co-signer\'s secret key first: approving signs with it.', true);
      status.scrollIntoView({ block: 'center' });
      return;
    }
    form.elements.signature.value = await coSigner.sign(form.dataset.payload);
    form.submit();
  });
}
