// The media service's HTTP contract: request and response schemas of its routes.
export {}
