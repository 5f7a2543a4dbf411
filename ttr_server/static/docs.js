// /api/docs: Swagger UI from the package's own copy (static/vendor/swagger-ui), on the server's
// OpenAPI document. No inline script, and nothing loaded from elsewhere: validatorUrl null, since
// Swagger UI would otherwise ask a public validator about the document.
window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#swagger-ui",
  validatorUrl: null,
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
