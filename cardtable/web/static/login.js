"use strict";
const query = new URLSearchParams(location.search);
document.getElementById("wrong").hidden = !query.has("wrong");
document.getElementById("off").hidden = !query.has("off");          // the table has no PIN
document.getElementById("pin-form").hidden = query.has("off");
