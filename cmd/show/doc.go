// Package show is `dsh-replay show`: every recorded call drawn as its card
// (or as NDJSON views), and the renderer the card goldens are made with.
package show
