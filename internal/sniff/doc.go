// Package sniff tells what kind of text a tool printed — HTML, JSON, a
// CSV table or plain text — so that it can be handed to the next tool as a
// file with the right extension and media type.
//
//	ext, mediaType := sniff.Text(out) // ".csv", "text/csv"
package sniff
