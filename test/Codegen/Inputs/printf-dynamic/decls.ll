; What Printf.cpp declares before parsing PrintfDynamic.ll into a module.
declare i64 @__ockl_printf_begin(i64)
declare i64 @__ockl_printf_append_args(i64, i32, i64, i64, i64, i64, i64, i64, i64, i32)
declare i64 @__ockl_printf_append_string_n(i64, ptr, i64, i32)
declare i64 @__zluda_strlen(ptr)
