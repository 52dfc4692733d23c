package htmlparse

// maxOpenElements bounds the stack of open elements (the quadratic parts of
// tree construction); domino has no bound, so it is far above anything the
// converter can finish, and a deeper document is an error.
const maxOpenElements = 4096
