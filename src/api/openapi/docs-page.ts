// The API reference page at /api/docs: Swagger UI (served from this server,
// storage/app-bundle.ts loadSwaggerUi) rendering /api/v1/openapi.json. No
// inline script, so the page runs under a CSP that allows scripts only from
// this origin; Swagger UI sets style attributes, which its CSP allows.

/** The page's HTML: the stylesheet, the bundle and the start script, all under /api/docs/assets/. */
export const DOCS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/docs.js"></script>
</body>
</html>
`;

/** Starts Swagger UI on the public document; `?workspace=` shows one workspace's typed document. */
export const DOCS_PAGE_SCRIPT = `'use strict';
(function () {
  var workspace = new URLSearchParams(window.location.search).get('workspace');
  var url = workspace && /^[A-Za-z0-9_-]{1,128}$/.test(workspace) ? '/api/v1/workspaces/' + workspace + '/openapi.json' : '/api/v1/openapi.json';
  window.ui = SwaggerUIBundle({ url: url, dom_id: '#reference', deepLinking: true });
})();
`;
