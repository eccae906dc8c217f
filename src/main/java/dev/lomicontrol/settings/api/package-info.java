/**
 * The settings tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.settings.api;

import org.jspecify.annotations.NullMarked;
