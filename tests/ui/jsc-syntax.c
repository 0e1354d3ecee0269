/* Parses every UI module with the app's own JavaScript engine (JavaScriptCore, the WebKitGTK
 * the window runs on), as a module: a syntax Node takes and WebKit refuses stops the whole app
 * at its first screen (it happened: one parenthesis too many that `node --check` passed).
 * Usage: jsc-syntax FILE.js...; prints each refusal with its line, exits 1 on any. */
#include <jsc/jsc.h>
#include <stdio.h>

int main(int argc, char **argv) {
  JSCContext *ctx = jsc_context_new();
  int bad = 0;
  for (int i = 1; i < argc; i++) {
    gchar *src;
    gsize len;
    if (!g_file_get_contents(argv[i], &src, &len, NULL)) {
      printf("%s: cannot be read\n", argv[i]);
      bad = 1;
      continue;
    }
    JSCException *ex = NULL;
    JSCCheckSyntaxResult r =
        jsc_context_check_syntax(ctx, src, len, JSC_CHECK_SYNTAX_MODE_MODULE, argv[i], 1, &ex);
    if (r != JSC_CHECK_SYNTAX_RESULT_SUCCESS) {
      bad = 1;
      printf("%s:%u: %s\n", argv[i], ex ? jsc_exception_get_line_number(ex) : 0,
             ex ? jsc_exception_get_message(ex) : "refused");
    }
    g_free(src);
  }
  printf("%d modules parsed by JavaScriptCore, %s\n", argc - 1, bad ? "some refused" : "all taken");
  return bad;
}
