// Printed pages (templates/print/base.html): the toolbar's button opens the print dialogue.
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});
