/**
 * The operation tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.operations.api;

import org.jspecify.annotations.NullMarked;
