; Host stubs of the device library's printf protocol, tracing each call, and
; formats walked at run time with CUDA-style argument buffers.
@fmt.begin = private constant [10 x i8] c"begin %d\0A\00"
@fmt.arg = private constant [26 x i8] c"arg %llx last %d desc %d\0A\00"
@fmt.str = private constant [29 x i8] c"string \22%s\22 size %d last %d\0A\00"
@fmt.ret = private constant [11 x i8] c"return %d\0A\00"
declare i32 @printf(ptr, ...)
declare i64 @strlen(ptr)
define i64 @__zluda_strlen(ptr %s) {
  %n = call i64 @strlen(ptr %s)
  ret i64 %n
}
define i64 @__ockl_printf_begin(i64 %v) {
  call i32 (ptr, ...) @printf(ptr @fmt.begin, i64 %v)
  ret i64 1
}
define i64 @__ockl_printf_append_args(i64 %d, i32 %n, i64 %a, i64 %b, i64 %c, i64 %e, i64 %f, i64 %g, i64 %h, i32 %last) {
  call i32 (ptr, ...) @printf(ptr @fmt.arg, i64 %a, i32 %last, i64 %d)
  %r = add i64 %d, 1
  ret i64 %r
}
define i64 @__ockl_printf_append_string_n(i64 %d, ptr %s, i64 %n, i32 %last) {
  call i32 (ptr, ...) @printf(ptr @fmt.str, ptr %s, i64 %n, i32 %last)
  %r = add i64 %d, 1
  ret i64 %r
}
declare i32 @__zluda_vprintf_dynamic(i64, i64)

@f1 = private constant [27 x i8] c"s=%s x=%lld c=%c %5.*f%% \0A\00"
@name = private constant [3 x i8] c"hi\00"
@f2 = private constant [7 x i8] c"plain\0A\00"
@f4 = private constant [4 x i8] c"%s|\00"
@f3 = private constant [19 x i8] c"%-08.3hd %lu %p %q\00"
define i32 @main() {
  ; CUDA's buffer for f1: char* (8), long long (8), char as int (4), int (4), double (8)
  %b1 = alloca [40 x i8], align 8
  %p0 = getelementptr i8, ptr %b1, i64 0
  store ptr @name, ptr %p0
  %p1 = getelementptr i8, ptr %b1, i64 8
  store i64 123, ptr %p1
  %p2 = getelementptr i8, ptr %b1, i64 16
  store i32 122, ptr %p2
  %p3 = getelementptr i8, ptr %b1, i64 20
  store i32 2, ptr %p3
  %p4 = getelementptr i8, ptr %b1, i64 24
  store double 3.25, ptr %p4
  %fa = ptrtoint ptr @f1 to i64
  %ba = ptrtoint ptr %b1 to i64
  %r1 = call i32 @__zluda_vprintf_dynamic(i64 %fa, i64 %ba)
  call i32 (ptr, ...) @printf(ptr @fmt.ret, i32 %r1)
  %f2a = ptrtoint ptr @f2 to i64
  %r2 = call i32 @__zluda_vprintf_dynamic(i64 %f2a, i64 0)
  call i32 (ptr, ...) @printf(ptr @fmt.ret, i32 %r2)
  ; f3: short as int (4), then unsigned long (8, aligned to 8), pointer (8); %q consumes nothing
  %b3 = alloca [24 x i8], align 8
  store i32 -5, ptr %b3
  %q1 = getelementptr i8, ptr %b3, i64 8
  store i64 77, ptr %q1
  %q2 = getelementptr i8, ptr %b3, i64 16
  store ptr null, ptr %q2
  %f3a = ptrtoint ptr @f3 to i64
  %b3a = ptrtoint ptr %b3 to i64
  %r3 = call i32 @__zluda_vprintf_dynamic(i64 %f3a, i64 %b3a)
  call i32 (ptr, ...) @printf(ptr @fmt.ret, i32 %r3)
  ; a null string argument prints "(null)"
  %b4 = alloca [8 x i8], align 8
  store ptr null, ptr %b4
  %b4a = ptrtoint ptr %b4 to i64
  %f4a = ptrtoint ptr @f4 to i64
  %r4 = call i32 @__zluda_vprintf_dynamic(i64 %f4a, i64 %b4a)
  call i32 (ptr, ...) @printf(ptr @fmt.ret, i32 %r4)
  ret i32 0
}
