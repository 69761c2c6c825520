package viewer

// The cap on the viewer's connections is the front door's (front.Listener): at the cap a new
// connection takes the place of the oldest idle keep-alive connection (a browser opens
// another without fuss), else of the oldest that has brought no request and is
// front.ConnGrace old; when every connection is busy with a request or an event stream
// (which PingTimeout keeps to streams that read), it is answered 503 naming the limit.

// DefaultMaxConns caps the connections the viewer's listener holds at once unless Options
// say otherwise: room for DefaultMaxClients tabs' streams and their requests.
const DefaultMaxConns = 512
