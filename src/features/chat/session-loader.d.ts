/**
 * Starts the app's chat session (./session) for whoever signs in, one file per platform: on H5 the messaging SDK
 * is loaded after the first render, in a quiet moment, and only once someone is signed in (it stays out of home's
 * first load); the mini-program, which loads its main package whole and has no dynamic import, starts it at once.
 */
export declare function loadChatSessionWhenSignedIn(): void;
