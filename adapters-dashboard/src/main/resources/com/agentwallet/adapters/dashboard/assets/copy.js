// Copy buttons: a button with data-copy="<id>" copies that element's text, and is shown only where
// this script runs and the page may use the clipboard.
for (const button of document.querySelectorAll('button[data-copy]')) {
  if (!navigator.clipboard) continue;
  const status = button.parentElement.querySelector('.copied');
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(document.getElementById(button.dataset.copy).textContent);
      status.textContent = 'Copied.';
    } catch {
      status.textContent = 'Could not copy: select the text and copy it by hand.';
    }
  });
}
