"use strict";
const query = new URLSearchParams(location.search);
document.getElementById("wrong").hidden = !query.has("wrong");
if (Number(query.get("wait")) > 1) {
  document.getElementById("wrong").textContent = "That PIN is not right, or came before the wait was over. "
    + "Try again in " + query.get("wait") + " seconds.";
}
document.getElementById("off").hidden = !query.has("off");          // the table has no PIN
document.getElementById("pin-form").hidden = query.has("off");
