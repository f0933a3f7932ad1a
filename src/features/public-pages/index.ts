// The public pages are reached through the route table (src/config/routes.ts); nothing else
// imports them.
export {}
