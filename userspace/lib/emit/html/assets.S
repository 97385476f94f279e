/*
 * The HTML report's page, style sheets and script (report.html,
 * report.css and merge.css, and the script's seven parts beside this
 * file, in order), embedded into the binary as NUL-terminated strings
 * for emit/html.c.
 * The Makefile assembles this with -I userspace/lib/emit/html so .incbin
 * finds them.
 */
	.section .rodata
	.global sa_html_page_html, sa_html_page_css, sa_html_page_js
	.type sa_html_page_html, %object
	.type sa_html_page_css, %object
	.type sa_html_page_js, %object
sa_html_page_html:
	.incbin "report.html"
	.byte 0
sa_html_page_css:
	.incbin "report.css"
	.incbin "merge.css"
	.byte 0
sa_html_page_js:
	.incbin "base.js"
	.incbin "charts.js"
	.incbin "treemap.js"
	.incbin "sections.js"
	.incbin "merge.js"
	.incbin "report.js"
	.incbin "flame.js"
	.byte 0

	.section .note.GNU-stack, "", %progbits
