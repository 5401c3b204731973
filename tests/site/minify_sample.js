// What esbuild must minify without changing what it prints (tests/site/test_site_scripts.py): a comment line,
// and "//" inside a string, a template literal and a regular expression.
// a comment line, dropped
var url = "https://example.org/a//b";
var text = `first line
  // not a comment: part of the text
last line`;
var re = /\/\//g;
console.log(JSON.stringify([url, text, "a//b".replace(re, "-")]));
