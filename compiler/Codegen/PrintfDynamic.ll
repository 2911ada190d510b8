; PrintfDynamic.ll - CUDA printf with a format known only at run time.
;
; i32 __zluda_vprintf_dynamic(i64 format, i64 buffer), parsed into a module
; by Printf.cpp (expandPrintf) for each vprintf call whose format is not a
; constant. __zluda_printf_walk reads the format as Printf.cpp's
; parseFormat does (flags, width and precision, `*` taking an int, length
; modifiers, the conversion), one character a step: with `append` false it
; counts the arguments; with it true it appends each (ints 4 bytes, the rest
; 8, each at its alignment in the buffer; strings by their text, a null one
; as "(null)"), the last one marked. A conversion CUDA's printf does not
; have consumes nothing. It uses what Printf.cpp declares first: the device
; library's __ockl_printf_begin/_append_args/_append_string_n and
; __zluda_strlen. test/Codegen/printf-dynamic.test runs it on the host.
@__zluda_printf_null = private unnamed_addr addrspace(4) constant [7 x i8] c"(null)\00", align 1

define internal i32 @__zluda_vprintf_dynamic(i64 %fmtAddr, i64 %bufAddr) {
entry:
  %fmt = inttoptr i64 %fmtAddr to ptr
  %buf = inttoptr i64 %bufAddr to ptr
  %n = call i64 @__zluda_printf_walk(ptr %fmt, ptr %buf, i64 0, i64 0, i1 false)
  %len = call i64 @__zluda_strlen(ptr %fmt)
  %size = add i64 %len, 1
  %d0 = call i64 @__ockl_printf_begin(i64 0)
  %none = icmp eq i64 %n, 0
  %nonei = zext i1 %none to i32
  %d1 = call i64 @__ockl_printf_append_string_n(i64 %d0, ptr %fmt, i64 %size, i32 %nonei)
  %d2 = call i64 @__zluda_printf_walk(ptr %fmt, ptr %buf, i64 %d1, i64 %n, i1 true)
  %r = trunc i64 %n to i32
  ret i32 %r
}

define internal i64 @__zluda_printf_walk(ptr %fmt, ptr %buf, i64 %desc0, i64 %total, i1 %append) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %next ]
  %state = phi i32 [ 0, %entry ], [ %state.n, %next ]
  %longs = phi i1 [ false, %entry ], [ %longs.n, %next ]
  %k = phi i64 [ 0, %entry ], [ %k.n, %next ]
  %off = phi i64 [ 0, %entry ], [ %off.n, %next ]
  %desc = phi i64 [ %desc0, %entry ], [ %desc.n, %next ]
  %p = getelementptr i8, ptr %fmt, i64 %i
  %c = load i8, ptr %p, align 1
  %end = icmp eq i8 %c, 0
  br i1 %end, label %done, label %dispatch
dispatch:
  %pct = icmp eq i8 %c, 37
  switch i32 %state, label %spec [ i32 0, label %text
                                    i32 1, label %percent ]
text:
  %st.text = select i1 %pct, i32 1, i32 0
  br label %next
percent:
  br i1 %pct, label %literal, label %spec
literal:
  br label %next
spec:
  switch i8 %c, label %unknown [
    i8 45, label %mod
    i8 43, label %mod
    i8 32, label %mod
    i8 35, label %mod
    i8 46, label %mod
    i8 48, label %mod
    i8 49, label %mod
    i8 50, label %mod
    i8 51, label %mod
    i8 52, label %mod
    i8 53, label %mod
    i8 54, label %mod
    i8 55, label %mod
    i8 56, label %mod
    i8 57, label %mod
    i8 104, label %mod
    i8 108, label %long
    i8 122, label %long
    i8 106, label %long
    i8 116, label %long
    i8 42, label %star
    i8 100, label %int
    i8 105, label %int
    i8 111, label %int
    i8 117, label %int
    i8 120, label %int
    i8 88, label %int
    i8 99, label %int
    i8 102, label %eight
    i8 70, label %eight
    i8 101, label %eight
    i8 69, label %eight
    i8 103, label %eight
    i8 71, label %eight
    i8 97, label %eight
    i8 65, label %eight
    i8 112, label %eight
    i8 115, label %strk
  ]
mod:
  br label %next
long:
  br label %next
unknown:
  br label %next
int:
  %kind.int = select i1 %longs, i32 1, i32 0
  br label %emit
star:
  br label %emit
eight:
  br label %emit
strk:
  br label %emit
emit:
  ; kind: 0 a 4-byte int, 1 8 bytes, 2 a string; `*` is an int and stays
  ; in the conversion
  %kind = phi i32 [ 0, %star ], [ 1, %eight ], [ 2, %strk ], [ %kind.int, %int ]
  %isstar = icmp eq i8 %c, 42
  %st.emit = select i1 %isstar, i32 2, i32 0
  %longs.emit = and i1 %longs, %isstar
  %is4 = icmp eq i32 %kind, 0
  %size = select i1 %is4, i64 4, i64 8
  %mask = sub i64 %size, 1
  %up = add i64 %off, %mask
  %notmask = xor i64 %mask, -1
  %at = and i64 %up, %notmask
  %off.emit = add i64 %at, %size
  %k.emit = add i64 %k, 1
  br i1 %append, label %load, label %next
load:
  %ap = getelementptr i8, ptr %buf, i64 %at
  %last = icmp eq i64 %k.emit, %total
  %lasti = zext i1 %last to i32
  %isstr = icmp eq i32 %kind, 2
  br i1 %isstr, label %string, label %value
value:
  br i1 %is4, label %value4, label %value8
value4:
  %v4 = load i32, ptr %ap, align 4
  %v4z = zext i32 %v4 to i64
  br label %appendv
value8:
  %v8 = load i64, ptr %ap, align 4
  br label %appendv
appendv:
  %v = phi i64 [ %v4z, %value4 ], [ %v8, %value8 ]
  %desc.v = call i64 @__ockl_printf_append_args(i64 %desc, i32 1, i64 %v, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i32 %lasti)
  br label %next
string:
  %sv = load i64, ptr %ap, align 4
  %sp = inttoptr i64 %sv to ptr
  %snull = icmp eq i64 %sv, 0
  %nullp = addrspacecast ptr addrspace(4) @__zluda_printf_null to ptr
  %str = select i1 %snull, ptr %nullp, ptr %sp
  %slen = call i64 @__zluda_strlen(ptr %str)
  %ssize = add i64 %slen, 1
  %desc.s = call i64 @__ockl_printf_append_string_n(i64 %desc, ptr %str, i64 %ssize, i32 %lasti)
  br label %next
next:
  %state.n = phi i32 [ %st.text, %text ], [ 0, %literal ], [ 2, %mod ], [ 2, %long ], [ 0, %unknown ], [ %st.emit, %emit ], [ %st.emit, %appendv ], [ %st.emit, %string ]
  %longs.n = phi i1 [ false, %text ], [ false, %literal ], [ %longs, %mod ], [ true, %long ], [ false, %unknown ], [ %longs.emit, %emit ], [ %longs.emit, %appendv ], [ %longs.emit, %string ]
  %k.n = phi i64 [ %k, %text ], [ %k, %literal ], [ %k, %mod ], [ %k, %long ], [ %k, %unknown ], [ %k.emit, %emit ], [ %k.emit, %appendv ], [ %k.emit, %string ]
  %off.n = phi i64 [ %off, %text ], [ %off, %literal ], [ %off, %mod ], [ %off, %long ], [ %off, %unknown ], [ %off.emit, %emit ], [ %off.emit, %appendv ], [ %off.emit, %string ]
  %desc.n = phi i64 [ %desc, %text ], [ %desc, %literal ], [ %desc, %mod ], [ %desc, %long ], [ %desc, %unknown ], [ %desc, %emit ], [ %desc.v, %appendv ], [ %desc.s, %string ]
  %i.next = add i64 %i, 1
  br label %loop
done:
  %r = select i1 %append, i64 %desc, i64 %k
  ret i64 %r
}
