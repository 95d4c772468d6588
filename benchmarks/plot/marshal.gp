# marshal.gp - Table 3 and Figure 7 of the DL paper: the in-place
# conversions of every ELL shape of Table 1, per algorithm and tile, as a
# fraction of the copy bandwidth measured with each figure.  Bars, one
# cluster per shape; error bars: the slowest and the fastest repetition.
# Both panels share one logarithmic y axis (ymin, ymax) so that BS and
# PTTWAC, 20-40x apart on a CPU, stay readable side by side.
# Data (dl-bench suite): marshal_aos.dat (n3 series) and marshal_da.dat (n7
# series): a header line, then per shape: name, and per series: ratio,
# min, max (NaN: not applicable or not run).
if (!exists("term")) term = 'pngcairo'
if (!exists("info")) info = ''
if (!exists("palette")) palette = '#0072B2 #D55E00 #009E73 #CC79A7 #56B4E9 #E69F00 #000000'
if (!exists("n3")) n3 = 6
if (!exists("n7")) n7 = 6
if (!exists("ymin")) ymin = 0.001
if (!exists("ymax")) ymax = 10
if (!exists("nshapes")) nshapes = 6
set terminal @term size 1200,560 noenhanced
set output 'marshal.png'
set datafile missing 'NaN'
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.9 border -1
set boxwidth 0.9
set grid ytics
set logscale y
set yrange [ymin:ymax]
set xrange [-0.6:nshapes-0.4]
set ylabel 'GB/s / copy GB/s (log scale)'
set xtics rotate by 30 right
set key below horizontal font ',9'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 2 lc rgb '#555555'
set label 2 'copy bandwidth' at graph 0.99, first 1.2 right font ',9'
set multiplot layout 1,2 title info font ',10'
set title 'AoS -> ASTA in place (Table 3)'
plot for [i=0:n3-1] 'marshal_aos.dat' \
         using (column(2+3*i)):(column(3+3*i)):(column(4+3*i)):xtic(1) \
         lc rgb word(palette, i+1) title columnheader(2+3*i)
set title 'DA -> ASTA in place (Figure 7)'
plot for [i=0:n7-1] 'marshal_da.dat' \
         using (column(2+3*i)):(column(3+3*i)):(column(4+3*i)):xtic(1) \
         lc rgb word(palette, i+1) title columnheader(2+3*i)
unset multiplot
