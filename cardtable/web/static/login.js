"use strict";
document.getElementById("wrong").hidden = !new URLSearchParams(location.search).has("wrong");
