package htmlparse

import html "golang.org/x/net/html"

// The tokenizer is golang.org/x/net/html's, unchanged.
type (
	Token     = html.Token
	Tokenizer = html.Tokenizer
	Attribute = html.Attribute
	TokenType = html.TokenType
)

const (
	ErrorToken          = html.ErrorToken
	TextToken           = html.TextToken
	StartTagToken       = html.StartTagToken
	EndTagToken         = html.EndTagToken
	SelfClosingTagToken = html.SelfClosingTagToken
	CommentToken        = html.CommentToken
	DoctypeToken        = html.DoctypeToken
)

var (
	NewTokenizer         = html.NewTokenizer
	NewTokenizerFragment = html.NewTokenizerFragment
	ErrBufferExceeded    = html.ErrBufferExceeded
)

// maxOpenElements bounds the stack of open elements (the quadratic parts of
// tree construction); domino has no bound, so it is far above anything the
// converter can finish, and a deeper document is an error.
const maxOpenElements = 4096
