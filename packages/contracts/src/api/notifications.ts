// The notifications service's HTTP contract: request and response schemas of its routes.
export {}
