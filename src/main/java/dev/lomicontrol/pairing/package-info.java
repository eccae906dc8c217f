/**
 * Pairing and sessions: pending pairing requests, grants and scopes, YOLO, live sessions and their
 * revocation. Entry points: {@link dev.lomicontrol.pairing.Pairings}, {@link dev.lomicontrol.pairing.Sessions}.
 */
@NullMarked
package dev.lomicontrol.pairing;

import org.jspecify.annotations.NullMarked;
