/**
 * Pairing and sessions: pending pairing requests, grants and scopes, YOLO, live sessions and their
 * revocation. Entry points: {@link dev.lomicontrol.pairing.Pairings}, {@link dev.lomicontrol.pairing.Sessions}.
 */
package dev.lomicontrol.pairing;
