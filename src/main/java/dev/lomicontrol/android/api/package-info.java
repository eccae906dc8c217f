/**
 * The Android tool declarations (lomi_android_list served; the others answer HOST_UNQUALIFIED).
 */
@NullMarked
package dev.lomicontrol.android.api;

import org.jspecify.annotations.NullMarked;
