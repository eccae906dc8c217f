/**
 * The Android tool declarations (answered HOST_UNQUALIFIED on this host).
 */
@NullMarked
package dev.lomicontrol.tools.android;

import org.jspecify.annotations.NullMarked;
