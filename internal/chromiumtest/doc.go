// Package chromiumtest drives a headless Chromium over the DevTools protocol
// for tests of agentnet's HTML pages: load a page, click, read the DOM,
// take a screenshot. Without a Chromium on PATH, Find returns "" and the
// test skips with a one-line reason.
//
//	bin := chromiumtest.Find()
//	if bin == "" {
//		t.Skip(chromiumtest.SkipReason)
//	}
//	page := chromiumtest.Start(t, bin)
//	page.Navigate("file:///tmp/report.html")
//	n := page.Eval(`document.querySelectorAll("details.task").length`)
package chromiumtest
